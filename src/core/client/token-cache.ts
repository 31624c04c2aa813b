/** How long before `expiresIn` runs out a cached token is replaced. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;

export interface IssuedToken {
  token: string;
  /** Lifetime in seconds from the moment it was issued. */
  expiresIn: number;
}

/**
 * Caches the bearer token until shortly before it expires. Refreshing is single-flight: however
 * many calls need a token at once, one request goes to the token endpoint and all of them wait for it.
 */
export class TokenCache {
  private current: { token: string; refreshAt: number } | undefined;
  private inflight: Promise<string> | undefined;

  constructor(
    private readonly fetchToken: () => Promise<IssuedToken>,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<string> {
    if (this.current !== undefined && this.now() < this.current.refreshAt) return this.current.token;
    return this.refresh();
  }

  /** Forgets `token` if it is still the cached one (after a 401); a newer token is kept. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private refresh(): Promise<string> {
    if (this.inflight === undefined) {
      const startedAt = this.now();
      this.inflight = this.fetchToken()
        .then(({ token, expiresIn }) => {
          const lifetimeMs = expiresIn * 1000;
          const margin = Math.min(TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 10);
          this.current = { token, refreshAt: startedAt + lifetimeMs - margin };
          return token;
        })
        .finally(() => {
          this.inflight = undefined;
        });
    }
    return this.inflight;
  }
}
