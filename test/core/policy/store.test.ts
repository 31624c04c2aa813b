import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isPolicyError, type PolicyChange, PolicyStore } from '../../../src/core/policy/index.js';

const policyText = (rule: string) =>
  `actors: [{match: {cli: '*'}, roles: [viewer]}]\nrules:\n  - { name: ${rule}, allow: [viewer] }\n`;
const ruleName = (store: PolicyStore) => store.current().rules[0]?.name;

const root = mkdtempSync(join(tmpdir(), 'bankops-policy-store-'));
let counter = 0;
const open: PolicyStore[] = [];

/** A fresh policy file in its own directory, loaded, with every watch event collected. */
function setup(initialRule = 'first') {
  counter += 1;
  const dir = join(root, `case-${counter}`);
  mkdirSync(dir);
  const file = join(dir, 'policy.yaml');
  writeFileSync(file, policyText(initialRule));
  const store = PolicyStore.load(file, { debounceMs: 20 });
  open.push(store);
  const seen: PolicyChange[] = [];
  let wake: (() => void) | undefined;
  const watch = () =>
    store.watch((change) => {
      seen.push(change);
      wake?.();
    });
  /** Resolves with the first collected change that satisfies `test`; rejects after `timeoutMs`. */
  const changeWhere = (test: (change: PolicyChange) => boolean, timeoutMs = 5_000) =>
    new Promise<PolicyChange>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching policy change within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const check = () => {
        const found = seen.find(test);
        if (found === undefined) return;
        clearTimeout(timer);
        wake = undefined;
        resolve(found);
      };
      wake = check;
      check();
    });
  return { dir, file, store, watch, seen, changeWhere };
}

afterEach(() => {
  for (const store of open.splice(0)) store.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('PolicyStore', () => {
  it('refuses to start on a broken file', () => {
    const { file } = setup();
    writeFileSync(file, 'rules: [{allow: [a], approval: {approvers: 9, role: b}}]');
    let caught: unknown;
    try {
      PolicyStore.load(file);
    } catch (error) {
      caught = error;
    }
    expect(isPolicyError(caught)).toBe(true);
    expect(String(caught)).toContain('rules[0].approval.approvers');
  });

  it('addActors() gives roles to identities the file lacks, for this process, across reloads', () => {
    const { file, store } = setup();
    const entry = { match: { slackUser: 'U0LOCAL' }, roles: ['viewer'] };
    store.addActors([entry]);
    expect(store.current().actors).toEqual([{ match: { cli: '*' }, roles: ['viewer'] }, entry]);
    writeFileSync(file, policyText('second'));
    expect(store.reload()).toEqual({ ok: true });
    expect(ruleName(store)).toBe('second');
    expect(store.current().actors.at(-1)).toEqual(entry);
    expect(PolicyStore.load(file).current().actors).toHaveLength(1);
  });

  it('reload() picks up a new file', () => {
    const { file, store } = setup();
    expect(ruleName(store)).toBe('first');
    writeFileSync(file, policyText('second'));
    expect(store.reload()).toEqual({ ok: true });
    expect(ruleName(store)).toBe('second');
  });

  it('a broken or missing file keeps the previous policy and returns the error', () => {
    const { file, store } = setup();
    const before = store.current();
    writeFileSync(file, 'rules:\n  - { allow: [viewer], tools: [Not A Tool] }\n');
    const broken = store.reload();
    expect(broken.ok).toBe(false);
    if (broken.ok) return;
    expect(broken.error.issues).toEqual([expect.stringMatching(/^rules\[0\]\.tools\[0\]: /)]);
    expect(broken.error.message).toContain(file);
    expect(store.current()).toBe(before);

    rmSync(file);
    const missing = store.reload();
    expect(missing).toMatchObject({
      ok: false,
      error: { issues: [expect.stringMatching(/^cannot read the file/)] },
    });
    expect(store.current()).toBe(before);

    writeFileSync(file, policyText('fixed'));
    expect(store.reload()).toEqual({ ok: true });
    expect(ruleName(store)).toBe('fixed');
  });

  it('watch() reloads when the file is written', async () => {
    const { file, store, watch, changeWhere } = setup();
    watch();
    writeFileSync(file, policyText('edited'));
    const change = await changeWhere((c) => c.result.ok);
    expect(change.trigger).toBe('file');
    expect(ruleName(store)).toBe('edited');
  });

  it('watch() follows a file replaced by rename, as editors and config managers do', async () => {
    const { dir, file, store, watch, changeWhere } = setup();
    watch();
    const temp = join(dir, '.policy.yaml.tmp');
    writeFileSync(temp, policyText('renamed'));
    renameSync(temp, file);
    await changeWhere((c) => c.result.ok);
    expect(ruleName(store)).toBe('renamed');
    // The watch survives the replacement: a second edit is seen too.
    writeFileSync(file, policyText('again'));
    await changeWhere(() => ruleName(store) === 'again');
  });

  it('watch() reports a broken edit, keeps the previous policy, then takes the fix', async () => {
    const { file, store, watch, changeWhere } = setup();
    watch();
    writeFileSync(file, 'rules: [ {allow: [viewer]');
    const broken = await changeWhere((c) => !c.result.ok);
    expect(broken.result).toMatchObject({
      ok: false,
      error: { issues: [expect.stringMatching(/^not valid YAML/)] },
    });
    expect(ruleName(store)).toBe('first');
    writeFileSync(file, policyText('fixed'));
    await changeWhere((c) => c.result.ok);
    expect(ruleName(store)).toBe('fixed');
  });

  it('SIGHUP reloads, and close() removes the handler', async () => {
    const { file, store, watch, changeWhere } = setup();
    const listenersBefore = process.listenerCount('SIGHUP');
    watch();
    expect(process.listenerCount('SIGHUP')).toBe(listenersBefore + 1);
    // The file watcher may fire too; only the change the signal caused is awaited.
    writeFileSync(file, policyText('hup'));
    process.kill(process.pid, 'SIGHUP');
    const change = await changeWhere((c) => c.trigger === 'signal');
    expect(change.result).toEqual({ ok: true });
    expect(ruleName(store)).toBe('hup');
    store.close();
    expect(process.listenerCount('SIGHUP')).toBe(listenersBefore);
  });

  it('watch() may be called once per store', () => {
    const { watch } = setup();
    watch();
    expect(() => watch()).toThrow(/already/);
  });
});
