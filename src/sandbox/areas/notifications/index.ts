import { defineArea } from '../../area.js';

/** Placeholder until the area is implemented. */
export const notificationsArea = defineArea({ name: 'notifications', seed: () => ({}), routes: () => [] });
