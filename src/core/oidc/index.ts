/** The identity provider, as the front ends use it: settings, token checks, the person a token names. */
export { personActor } from './person.js';
export { loadOidcSettings, type OidcSettings } from './settings.js';
export { SCOPES, type TokenCheck, TokenVerifier, type VerifierOptions } from './verify.js';
