/**
 * Why a passkey page or link cannot go on, in words for the person in front of it. `status` is the
 * HTTP status the pages answer with. The message never holds a token.
 */
export class PasskeyError extends Error {
  override readonly name = 'PasskeyError';
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 410 | 503,
    message: string,
  ) {
    super(message);
  }
}
