import { z } from 'zod';

/**
 * One change of a policy diff (`PolicyDiffChange` in ./diff.ts, the same shape) as an approval keeps
 * it with its preview.
 */
export const PolicyDiffChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('added'), path: z.array(z.string()).readonly(), after: z.unknown() }),
  z.object({ kind: z.literal('removed'), path: z.array(z.string()).readonly(), before: z.unknown() }),
  z.object({
    kind: z.literal('changed'),
    path: z.array(z.string()).readonly(),
    before: z.unknown(),
    after: z.unknown(),
  }),
  z.object({
    kind: z.literal('members'),
    path: z.array(z.string()).readonly(),
    added: z.array(z.unknown()).readonly(),
    removed: z.array(z.unknown()).readonly(),
  }),
]);
