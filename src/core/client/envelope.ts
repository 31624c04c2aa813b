import { z } from 'zod';

/** The three envelopes of the spec, plus `bare` for endpoints that answer with the data itself. */
export type EnvelopeKind = 'banking' | 'issuing' | 'notification' | 'bare';

/**
 * Envelopes are parsed leniently: unknown fields kept, `status` casing tolerated (`SUCCESS`,
 * `success`, `Success`), `code` optional where an envelope may omit it.
 */
export const EnvelopeSchema = z.looseObject({
  status: z.string().optional(),
  message: z.string().nullish(),
  code: z.number().optional(),
  data: z.unknown().optional(),
});

export const isSuccessStatus = (status: string | undefined): boolean => status?.toLowerCase() === 'success';
