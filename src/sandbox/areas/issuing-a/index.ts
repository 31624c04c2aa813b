import { defineArea } from '../../area.js';

/** Placeholder until the area is implemented. */
export const issuingAArea = defineArea({ name: 'issuing-a', seed: () => ({}), routes: () => [] });
