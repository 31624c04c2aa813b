import type { AnyTool } from '../../core/tool.js';
import { createConversion } from './create-conversion.js';
import { createPayout } from './create-payout.js';

/**
 * The money movers (toolset `banking`): they need approval under the default policy, show a quote
 * to the approvers, and re-quote at execution within the approved bound (DESIGN decision 5).
 */
export const moneyTools: readonly AnyTool[] = [createPayout, createConversion];
