export { challengeOf, challengeText } from './challenge.js';
export type { PasskeyInfo } from './credentials.js';
export { PasskeyError, type PasskeyStatus } from './errors.js';
export { looksLikeToken } from './links.js';
export { type SignatureFailure, type SignatureReport, verifySignatures } from './offline.js';
export { type RelyingParty, relyingPartyOf } from './relying-party.js';
export {
  APPROVE_PATH,
  type ApprovalPageData,
  BREAK_GLASS_PATH,
  type BreakGlassPageData,
  ENROL_PATH,
  type IssuedLink,
  PasskeyService,
  type PasskeyServiceOptions,
} from './service.js';
