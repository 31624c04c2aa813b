import { z } from 'zod';
import { notConfigured } from '../../core/errors.js';
import type { ToolContext } from '../../core/tool.js';

/** The alerts bankops keeps; absent only where none are kept at all. */
export function alertsOf(ctx: ToolContext): NonNullable<ToolContext['alerts']> {
  if (ctx.alerts === undefined) throw notConfigured('balance alerts are not kept here');
  return ctx.alerts;
}

export const checkEveryField = z.number();

/** The interval the alerts are checked at, in the outputs' unit. */
export const checkEvery = (ctx: ToolContext): number => Math.round(alertsOf(ctx).intervalMs / 1000);
