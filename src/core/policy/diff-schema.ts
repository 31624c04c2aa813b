import { z } from 'zod';

const path = z.array(z.string()).readonly();

/**
 * One change of a policy diff (`PolicyDiffChange` in ./diff.ts, the same shape) as an approval keeps
 * it with its preview. Values are the policy's own (any JSON).
 */
export const PolicyDiffChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('added'), path, after: z.unknown() }),
  z.object({ kind: z.literal('removed'), path, before: z.unknown() }),
  z.object({ kind: z.literal('changed'), path, before: z.unknown(), after: z.unknown() }),
  z.object({
    kind: z.literal('members'),
    path,
    added: z.array(z.unknown()).readonly(),
    removed: z.array(z.unknown()).readonly(),
  }),
]);
