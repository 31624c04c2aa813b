export { boundFor, exceedsBound, sealPreview } from './bound.js';
export { ApprovalEngine, type ApprovalEngineOptions } from './engine.js';
export { defaultOwner } from './owner.js';
export * from './step-up.js';
export * from './types.js';
