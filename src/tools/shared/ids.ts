import { z } from 'zod';

/** Printable ASCII, no leading or trailing space: what an HTTP header (and a path) carries as is. */
export const SENDABLE_ID = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * An id of the service: opaque, but sent in headers (`x-card-id`) and paths, so it may hold only
 * what those can carry. A zero-width space, a control character or an unpaired surrogate is
 * refused as invalid input here, before anything is sent or an approval is opened.
 */
export const idString = (): z.ZodString =>
  z
    .string()
    .trim()
    .min(1)
    .regex(
      SENDABLE_ID,
      'must be printable ASCII: an id holds no control, zero-width or other invisible characters',
    );
