import type { AnyTool } from '../../core/tool.js';
import { namePayee } from './name-payee.js';
import { verifyPayee } from './verify-payee.js';

/** The payee directory's own operations (toolset `banking`): naming a payee, verifying it by call-back. */
export const payeeTools: readonly AnyTool[] = [namePayee, verifyPayee];
