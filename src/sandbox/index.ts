export { SandboxClock } from './clock.js';
export { credentialsFromEnv, SANDBOX_DEFAULTS, type SandboxCredentials } from './credentials.js';
export { type RunningSandbox, type SandboxOptions, startSandbox } from './server.js';
export { openSandbox, SandboxHangUp, type SandboxService } from './service.js';
