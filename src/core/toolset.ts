/** The toolsets of the registry (DESIGN decision 2): switched on and off per front end. */
export const TOOLSETS = ['banking', 'issuing_a', 'issuing_b', 'notifications', 'admin'] as const;
export type Toolset = (typeof TOOLSETS)[number];
