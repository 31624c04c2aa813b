import { defineArea } from '../../area.js';

/** Placeholder until the area is implemented. */
export const issuingBArea = defineArea({ name: 'issuing-b', seed: () => ({}), routes: () => [] });
