/**
 * Check values of keys bankops keeps outside its database (the fingerprint key): an HMAC of a fixed
 * label under the key, never the key, so a process can tell that it holds the key the others hold.
 */
export interface KeyChecks {
  /**
   * The check value recorded under `name`; when none is, `value` is recorded first (the first
   * process on the database writes it; two starting at once agree on one).
   */
  claim(name: string, value: string): Promise<string>;
  /** Records `value` under `name` in place of any other (a rotation on purpose); the one it replaced. */
  replace(name: string, value: string): Promise<string | undefined>;
}
