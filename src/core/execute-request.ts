import type { AlertBook } from './alerts/book.js';
import type { ApprovalEngine } from './approvals/engine.js';
import type { RequestOrigin } from './approvals/types.js';
import type { AuditLog } from './audit/index.js';
import type { CardDirectory } from './cards.js';
import type { ServiceClient } from './client/index.js';
import type { Clock } from './clock.js';
import type { WriteToConfirm } from './confirmation.js';
import type { Logger } from './log.js';
import type { ToolCallObserver } from './observe.js';
import type { PayeeDirectory } from './payees.js';
import type { PolicyStore } from './policy/store.js';
import type { Actor } from './policy/types.js';
import type { Registry } from './registry.js';
import type { Storage } from './store/index.js';
import type { ToolDefaults } from './tool.js';
import type { ServiceWebhooks } from './webhooks.js';

/** What a front end asks of the executor (`Executor.execute`), and what the executor is built from. */
export interface ExecuteRequest {
  tool: string;
  input: unknown;
  actor: Actor;
  /**
   * Makes a retry the same request: a repeat with the same key returns the first result (and the
   * service sees the same `x-request-id`); the same key with a different input is refused.
   */
  idempotencyKey?: string;
  /** Where the request came from, kept with an approval so its answer goes back there. */
  origin?: RequestOrigin;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
  /**
   * Asks the person behind the call to confirm a write the policy allows outright (a write that
   * needs approval has its approvers instead). Resolves false when they decline; the call then
   * ends `declined` and nothing runs. Given only by front ends that can ask (MCP elicitation).
   * A front end that asks between two calls (MCP's multi round-trip) throws `ConfirmationDeferred`:
   * `execute` then rejects with it, nothing run and nothing audited, and the next call brings the
   * answer.
   */
  confirm?: (write: WriteToConfirm) => Promise<boolean>;
}

export interface ExecutorDeps {
  /** Idempotency keys of direct runs. */
  storage: Storage;
  /** Where bankops keeps its records, in the words a "not found" names it (`the SQLite file …`). */
  store?: string;
  registry: Registry;
  policy: PolicyStore;
  audit: AuditLog;
  client: ServiceClient;
  defaults: ToolDefaults;
  approvals?: ApprovalEngine;
  payees?: PayeeDirectory;
  cards: CardDirectory;
  /** Where the service delivers events, and its keys (the event-relay tools). */
  webhooks?: ServiceWebhooks;
  /** The balance alerts (the alert tools). */
  alerts?: AlertBook;
  /**
   * The install's key for fingerprints of inputs that hold a secret; kept outside the database
   * (src/app keeps it in a file beside it). A key of this process only when absent (tests).
   */
  fingerprintKey?: Buffer;
  log?: Logger;
  observer?: ToolCallObserver;
  /** The core's clock (payee cooling-off, rolling totals); real time by default. Tests move it. */
  clock?: Clock;
}
