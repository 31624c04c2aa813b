/** The small part of oidc-provider (which ships no types) the test identity provider uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface ProviderAccount {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  /** Koa's context, as far as a middleware of the test provider reads and writes it. */
  export interface ProviderContext {
    path: string;
    status: number;
    body: unknown;
  }

  export default class Provider {
    use(middleware: (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>): void;
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    proxy: boolean;
  }
}
