import { type FSWatcher, readFileSync, watch as watchFs } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { AsyncScope } from '../async-scope.js';
import type { PolicyStamp } from '../audit/schema.js';
import { internalError, messageOf } from '../errors.js';
import type { Storage } from '../store/index.js';
import { defaultPolicyPath } from './default-path.js';
import { PolicyError } from './errors.js';
import { inForce } from './in-force.js';
import { parsePolicyText, readPolicyText } from './parse.js';
import { textDigest } from './prebuilt.js';
import { governedVersion } from './record.js';
import type { ActorEntry, Policy } from './schema.js';
import { stepUpProblems } from './step-up.js';
import { policyHash } from './versions.js';

export type ReloadResult = { ok: true } | { ok: false; error: PolicyError };

export interface PolicyChange {
  trigger: 'file' | 'signal';
  result: ReloadResult;
}

export interface PolicyStoreOptions {
  /** Quiet time after the last file event before reloading; editors write a file in several steps. */
  debounceMs?: number;
  /**
   * `BANKOPS_PUBLIC_URL`: a policy that asks for passkey step-up is refused without an https one
   * (localhost allowed), at start-up and at every reload.
   */
  publicUrl?: string | undefined;
  /** Told, once per content of the file, that it differs from the governed version in force. */
  onNotice?: (message: string) => void;
  /** Told when a governed version another process recorded is put in force here (`sync`). */
  onAdopted?: (stamp: PolicyStamp) => void;
}

const DEFAULT_DEBOUNCE_MS = 150;

/** Which file: the explicit path, else `BANKOPS_POLICY`, else the shipped default. */
export function policyPath(path?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen =
    path ?? (env.BANKOPS_POLICY === undefined || env.BANKOPS_POLICY === '' ? undefined : env.BANKOPS_POLICY);
  return chosen === undefined ? defaultPolicyPath() : resolve(chosen);
}

function failure(error: unknown): ReloadResult {
  if (error instanceof PolicyError) return { ok: false, error };
  throw error;
}

const UNREADABLE = 'unreadable';

/** What one decision reads: the policy (with the process's added actors) and the version it is. */
interface Snapshot {
  policy: Policy;
  /** Undefined until the store knows the version (a process with no store attached). */
  stamp: PolicyStamp | undefined;
}

/** Where the versions are kept, once attached. */
interface Versions {
  storage: Storage;
  now: () => Date;
}

/** The policy in the text, if this deployment can honour it (step-up needs an https public URL). */
export function usable(text: string, source: string, publicUrl: string | undefined): Policy {
  const policy = parsePolicyText(text, source);
  const problems = stepUpProblems(policy, publicUrl);
  if (problems.length > 0) throw new PolicyError(source, problems);
  return policy;
}

/**
 * The policy in force. A reload that fails keeps the previous policy, so a typo in the file never
 * opens or closes everything; the error is returned (and given to `watch` listeners) to be logged.
 */
export class PolicyStore {
  readonly path: string;
  #policy: Policy;
  #text: string;
  /** Identities given roles besides the file's (`addActors`), kept across reloads. */
  #added: readonly ActorEntry[] = [];
  /** The file's policy with them and its version, made once per change and swapped whole. */
  #current: Snapshot;
  /** The snapshot a decision in progress reads, whatever changes meanwhile (`decide`). */
  readonly #pinned = new AsyncScope<Snapshot>();
  #versions: Versions | undefined;
  /** The recording of the latest reload's version; decisions wait for it. */
  #ready: Promise<void> = Promise.resolve();
  #lastAdoption: Promise<ReloadResult> = Promise.resolve({ ok: true });
  /** The policy in force without the added actors: the file's, or under governance the store's. */
  #base: Policy;
  #governed = false;
  /** The hash of the file content last said to differ from the governed version. */
  #noticed: string | undefined;
  readonly #onNotice: ((message: string) => void) | undefined;
  readonly #onAdopted: ((stamp: PolicyStamp) => void) | undefined;
  #follow: NodeJS.Timeout | undefined;
  /** Stops the wake-ups of `follow`, when the database sends them. */
  #unwake: (() => void) | undefined;
  /** Digest of the text last tried, so a file event that changed nothing does not reload again. */
  #lastDigest: string;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #onSignal: (() => void) | undefined;
  readonly #debounceMs: number;
  readonly #publicUrl: string | undefined;

  private constructor(
    path: string,
    policy: Policy,
    text: string,
    digest: string,
    options: PolicyStoreOptions,
  ) {
    this.path = path;
    this.#policy = policy;
    this.#text = text;
    this.#base = policy;
    this.#current = { policy, stamp: undefined };
    this.#onNotice = options.onNotice;
    this.#onAdopted = options.onAdopted;
    this.#lastDigest = digest;
    this.#debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.#publicUrl = options.publicUrl;
  }

  /** Reads and validates the file; throws `PolicyError` when it cannot be used (start-up must stop). */
  static load(path?: string, options: PolicyStoreOptions = {}): PolicyStore {
    const file = policyPath(path);
    const text = readPolicyText(file);
    return new PolicyStore(file, usable(text, file, options.publicUrl), text, textDigest(text), options);
  }

  /** The policy in force, or the one pinned for the decision in progress (`decide`). */
  current(): Policy {
    return (this.#pinned.get() ?? this.#current).policy;
  }

  /** The version of `current()` in the store; undefined before `attach`. */
  stamp(): PolicyStamp | undefined {
    return (this.#pinned.get() ?? this.#current).stamp;
  }

  /**
   * Runs one decision against one version: every `current()` and `stamp()` inside `work` (and what
   * it awaits) reads the snapshot taken here, so a reload meanwhile never mixes two versions. A
   * version being recorded is waited for first. Nested calls keep the outer snapshot.
   */
  async decide<T>(work: () => Promise<T>): Promise<T> {
    if (this.#pinned.get() !== undefined) return work();
    await this.#ready;
    return this.#pinned.run(this.#current, work);
  }

  /**
   * Keeps versions in the store from now on: the file's policy is recorded as a version if the
   * newest differs (docs/policy.md, "Versions"), and so is each reload before it is used.
   */
  async attach(storage: Storage, now: () => Date = () => new Date()): Promise<void> {
    this.#versions = { storage, now };
    await this.#adopt(this.#policy, this.#text);
  }

  /**
   * Puts in force what decides given this file (`inForce`: under governance the store's version,
   * else the file once recorded), policy and version together.
   */
  async #adopt(policy: Policy, text: string): Promise<void> {
    this.#policy = policy;
    this.#text = text;
    const versions = this.#versions;
    if (versions === undefined) {
      this.#base = policy;
      this.#current = { policy: this.#withAdded(policy), stamp: undefined };
      return;
    }
    const now = await inForce(
      versions.storage,
      { path: this.path, policy, text },
      versions.now,
      (t, source) => usable(t, source, this.#publicUrl),
    );
    this.#governed = now.governed;
    this.#base = now.policy;
    this.#current = { policy: this.#withAdded(now.policy), stamp: now.stamp };
    if (now.fileDiffers) this.#noticeDiffers(now.stamp.version, policyHash(policy));
  }

  /** Says once per content of the file that it differs from the governed version in force. */
  #noticeDiffers(version: number, fileHash: string): void {
    if (this.#noticed === fileHash) return;
    this.#noticed = fileHash;
    this.#onNotice?.(
      `the policy file ${this.path} differs from version ${version} in force under governance; deciding by version ${version} (bankops policy diff ${version} ${this.path} shows how; a change is made with bankops policy propose)`,
    );
  }

  /** Whether governance is on: the store's version decides in every process. */
  get governed(): boolean {
    return this.#governed;
  }

  /**
   * Under governance, picks up a newer version of the store (another process put it in force); the
   * next decision uses it. Without governance the file decides, and nothing changes here.
   */
  async sync(): Promise<void> {
    const versions = this.#versions;
    if (versions === undefined) return;
    const next = this.#ready.then(async () => {
      const latest = await versions.storage.read((stores) => stores.policies.latest());
      if (latest === undefined || latest.version === this.#current.stamp?.version) return;
      if (governedVersion(latest) === undefined) return;
      await this.#adopt(this.#policy, this.#text);
      const stamp = this.#current.stamp;
      if (stamp !== undefined) this.#onAdopted?.(stamp);
    });
    this.#ready = next.catch(() => undefined);
    await next;
  }

  /**
   * Calls `sync` every `intervalMs` (a long-running process), and at once whenever `wakeups` says
   * another process recorded a version (PostgreSQL's NOTIFY), until `close`.
   */
  follow(
    intervalMs: number,
    onError: (error: unknown) => void,
    wakeups?: { onPolicyChange(wake: () => void): () => void },
  ): void {
    clearInterval(this.#follow);
    this.#unwake?.();
    const look = () => {
      this.sync().catch(onError);
    };
    this.#follow = setInterval(look, intervalMs).unref();
    this.#unwake = wakeups?.onPolicyChange(look);
  }

  /**
   * Gives roles to identities the file does not list, in this process only and across reloads: the
   * people of `bankops serve`'s local Slack workspace (src/try), whose user ids exist nowhere else.
   * They come after the file's entries; a role the file does not define grants nothing.
   */
  addActors(entries: readonly ActorEntry[]): void {
    this.#added = [...this.#added, ...entries];
    this.#refresh();
  }

  #refresh(): void {
    this.#current = { policy: this.#withAdded(this.#base), stamp: this.#current.stamp };
  }

  #withAdded(policy: Policy): Policy {
    return this.#added.length === 0 ? policy : { ...policy, actors: [...policy.actors, ...this.#added] };
  }

  /** Until a reload's version is recorded (when attached): what decisions wait for. */
  settled(): Promise<void> {
    return this.#ready;
  }

  reload(): ReloadResult {
    let text: string;
    try {
      text = readPolicyText(this.path);
    } catch (error) {
      this.#lastDigest = UNREADABLE;
      return failure(error);
    }
    this.#lastDigest = textDigest(text);
    let policy: Policy;
    try {
      policy = usable(text, this.path, this.#publicUrl);
    } catch (error) {
      return failure(error);
    }
    if (this.#versions === undefined) {
      this.#policy = policy;
      this.#base = policy;
      this.#text = text;
      this.#refresh();
    } else {
      // In force once its version is recorded; decisions wait for that (`decide`). A store that
      // fails keeps the previous version, as a file that fails to parse does.
      const adopted = this.#ready.then(() => this.#adopt(policy, text));
      this.#ready = adopted.catch(() => undefined);
      this.#lastAdoption = adopted.then(
        (): ReloadResult => ({ ok: true }),
        (error: unknown): ReloadResult => ({
          ok: false,
          error: new PolicyError(this.path, [
            `cannot record the version in the database: ${messageOf(error)}`,
          ]),
        }),
      );
    }
    return { ok: true };
  }

  /** `reload()`, answered once its version is recorded (or failed to be) when attached. */
  async reloadSettled(): Promise<ReloadResult> {
    const result = this.reload();
    if (!result.ok || this.#versions === undefined) return result;
    return this.#lastAdoption;
  }

  /**
   * Reloads when the file changes (debounced) and on SIGHUP; `onChange` hears every attempt.
   * The directory is watched, not the file, because editors and config managers replace the file
   * (a new inode) and a watch on the old one would go silent.
   */
  watch(onChange: (change: PolicyChange) => void): void {
    if (this.#watcher !== undefined) throw internalError('PolicyStore.watch was already called');
    const name = basename(this.path);
    // Not persistent, like the unref'd timer: watching the policy must never keep a process alive.
    this.#watcher = watchFs(dirname(this.path), { persistent: false }, (_event, filename) => {
      // Kubernetes swaps a `..data` symlink instead of touching the file; a null name says nothing.
      if (filename !== null && filename !== name && !filename.startsWith('..')) return;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#reloadIfChanged(onChange), this.#debounceMs).unref();
    });
    this.#watcher.on('error', () => {
      // The directory went away; SIGHUP still works, and reload() reports the missing file.
      this.#watcher?.close();
    });
    this.#onSignal = () => {
      void this.reloadSettled().then((result) => onChange({ trigger: 'signal', result }));
    };
    process.on('SIGHUP', this.#onSignal);
  }

  close(): void {
    clearInterval(this.#follow);
    this.#follow = undefined;
    this.#unwake?.();
    this.#unwake = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#watcher?.close();
    this.#watcher = undefined;
    if (this.#onSignal !== undefined) process.off('SIGHUP', this.#onSignal);
    this.#onSignal = undefined;
  }

  #reloadIfChanged(onChange: (change: PolicyChange) => void): void {
    let digest: string;
    try {
      digest = textDigest(readFileSync(this.path, 'utf8'));
    } catch {
      digest = UNREADABLE;
    }
    if (digest === this.#lastDigest) return;
    void this.reloadSettled().then((result) => onChange({ trigger: 'file', result }));
  }
}
