/**
 * The two issuing families in one sentence each, so every description names them the same way
 * and people and assistants can tell them apart. Every issuing description starts with its
 * family's sentence (a front end may say it once instead: MCP's instructions do).
 */
export const FAMILY_A = 'Issuing family A (programs on /svc/issuing/api/v1).';
export const FAMILY_B = 'Issuing family B (programs on /issuing/api/v1).';
