import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { rememberSandboxPayees } from '../../src/app/sandbox-payees.js';
import { type RunningServe, startServe } from '../../src/app/serve.js';
import { runtimeOptions, testConfig } from './core.js';
import { type RunningSandbox, startTestSandbox } from './sandbox.js';

export interface TryTest {
  serve: RunningServe;
  runtime: Runtime;
  sandbox: RunningSandbox;
  /** Where the page is: `<listener>/try/slack`, on `localhost` when a port was given. */
  page: string;
  close(): Promise<void>;
}

export interface TryTestOptions {
  policyYaml?: string;
  /** A fixed port, for a public URL on `http://localhost:<port>` (the passkey pages' origin). */
  port?: number;
  publicUrl?: string;
  /** `--no-try`. */
  noTry?: boolean;
}

/**
 * `bankops serve` as a new user runs it, in this process: no Slack credentials, the service a
 * bankops sandbox on loopback, the long-running work on (settlement followed), so the local Slack
 * workspace is served at `/try/slack` with the real Slack app behind it.
 */
export async function startTryServe(options: TryTestOptions = {}): Promise<TryTest> {
  const dir = mkdtempSync(join(tmpdir(), 'bankops-try-'));
  const sandbox = await startTestSandbox();
  let policyPath: string | undefined;
  if (options.policyYaml !== undefined) {
    policyPath = join(dir, 'policy.yaml');
    writeFileSync(policyPath, options.policyYaml);
  }
  const runtime = await createRuntime(
    testConfig(
      sandbox,
      { dbPath: join(dir, 'bankops.db'), ...(policyPath === undefined ? {} : { policyPath }) },
      options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl },
    ),
    runtimeOptions({ background: true }),
  );
  // As the embedded sandbox's runtime does: its seeded payees known, so a payout finds its rail.
  await rememberSandboxPayees(runtime.payees);
  const serve = await startServe({
    runtime,
    host: '127.0.0.1',
    port: options.port ?? 0,
    settings: {
      slack: { enabled: false, why: 'SLACK_BOT_TOKEN is not set' },
      ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    },
    ...(options.noTry ? { try: false } : {}),
    slack: { outboxPollMs: 50, webApiRetries: 0 },
  });
  const host = options.port === undefined ? serve.url : `http://localhost:${serve.port}`;
  return {
    serve,
    runtime,
    sandbox,
    page: `${host}/try/slack`,
    close: async () => {
      await serve.close();
      await runtime.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Server-sent events read as a page reads them: each `{event, data}` kept, awaited by a test. */
export class EventReader {
  readonly events: { event: string; data: Record<string, unknown> }[] = [];
  readonly #abort = new AbortController();

  static async open(url: string): Promise<EventReader> {
    const reader = new EventReader();
    const response = await fetch(url, { signal: reader.#abort.signal });
    if (response.body === null) throw new Error('no event stream');
    void reader.#read(response.body);
    return reader;
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const raw = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(raw)?.[1] ?? 'message';
          const data = /^data: (.+)$/m.exec(raw)?.[1] ?? '{}';
          this.events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    } catch {
      // closed by `close`
    }
  }

  /** The first event that satisfies `found`, waiting for it (5 s at most). */
  async next(
    found: (e: { event: string; data: Record<string, unknown> }) => boolean,
    timeoutMs = 5_000,
  ): Promise<{ event: string; data: Record<string, unknown> }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const event = this.events.find(found);
      if (event !== undefined) return event;
      if (Date.now() > deadline)
        throw new Error(`no such event; got ${this.events.map((e) => e.event).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.#abort.abort();
  }
}
