/**
 * @simplewebauthn/server, loaded at the first passkey operation: its imports cost about half a
 * second, which every other command and every MCP start would pay for nothing.
 */
let loading: Promise<typeof import('@simplewebauthn/server')> | undefined;

export const webauthn = (): Promise<typeof import('@simplewebauthn/server')> => {
  loading ??= import('@simplewebauthn/server');
  return loading;
};
