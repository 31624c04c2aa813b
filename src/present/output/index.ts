/** Front-end-neutral documents of results (see model.ts); front ends render them. */

export { approvalDocument, approvalsDocument } from './approval.js';
export { type ColumnOf, cellOf, tableOf } from './columns.js';
export { blocksOf, documentOf } from './derive.js';
export { executionsDocument } from './executions.js';
export { amountValue, labelOf, maskedValue } from './format.js';
export type * from './model.js';
export { resultClass, resultDocument } from './result.js';
export { limitColumns } from './table.js';
export { pageInput, type ToolOutputOptions, toolOutputDocument } from './tool-output.js';
