import { type FSWatcher, readFileSync, watch as watchFs } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { internalError } from '../errors.js';
import { defaultPolicyPath } from './default-path.js';
import { PolicyError } from './errors.js';
import { parsePolicyText, readPolicyText } from './parse.js';
import { textDigest } from './prebuilt.js';
import type { ActorEntry, Policy } from './schema.js';
import { stepUpProblems } from './step-up.js';

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

/** The policy in the text, if this deployment can honour it (step-up needs an https public URL). */
function usable(text: string, source: string, publicUrl: string | undefined): Policy {
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
  /** Identities given roles besides the file's (`addActors`), kept across reloads. */
  #added: readonly ActorEntry[] = [];
  /** The file's policy with them, made once per change. */
  #current: Policy;
  /** Digest of the text last tried, so a file event that changed nothing does not reload again. */
  #lastDigest: string;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #onSignal: (() => void) | undefined;
  readonly #debounceMs: number;
  readonly #publicUrl: string | undefined;

  private constructor(path: string, policy: Policy, digest: string, options: PolicyStoreOptions) {
    this.path = path;
    this.#policy = policy;
    this.#current = policy;
    this.#lastDigest = digest;
    this.#debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.#publicUrl = options.publicUrl;
  }

  /** Reads and validates the file; throws `PolicyError` when it cannot be used (start-up must stop). */
  static load(path?: string, options: PolicyStoreOptions = {}): PolicyStore {
    const file = policyPath(path);
    const text = readPolicyText(file);
    return new PolicyStore(file, usable(text, file, options.publicUrl), textDigest(text), options);
  }

  current(): Policy {
    return this.#current;
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
    this.#current =
      this.#added.length === 0
        ? this.#policy
        : { ...this.#policy, actors: [...this.#policy.actors, ...this.#added] };
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
    try {
      this.#policy = usable(text, this.path, this.#publicUrl);
      this.#refresh();
      return { ok: true };
    } catch (error) {
      return failure(error);
    }
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
    this.#onSignal = () => onChange({ trigger: 'signal', result: this.reload() });
    process.on('SIGHUP', this.#onSignal);
  }

  close(): void {
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
    const result = this.reload();
    onChange({ trigger: 'file', result });
  }
}
