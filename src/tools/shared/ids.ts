import { z } from 'zod';

/** Printable ASCII, no leading or trailing space: what an HTTP header (and a path) carries as is. */
const SENDABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * An id of the service: opaque, but sent in headers (`x-card-id`) and paths, so it may hold only
 * what those can carry. A zero-width space, a control character or an unpaired surrogate is
 * refused as invalid input here, before anything is sent or an approval is opened. One message
 * per field: a blank id is said to be missing, not also to hold a bad character.
 */
export const idString = (): z.ZodString =>
  z
    .string()
    .trim()
    .min(1)
    .refine((id) => id === '' || SENDABLE.test(id), {
      message: 'must be printable ASCII: an id holds no control, zero-width or other invisible characters',
    });
