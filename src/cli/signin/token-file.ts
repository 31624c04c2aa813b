import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/** What `bankops login` keeps: the tokens, and where they came from. Mode 0600: they are secrets. */
export const SignInSchema = z.object({
  issuer: z.string(),
  clientId: z.string(),
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  /** Milliseconds since the epoch. */
  expiresAt: z.number(),
});

export type SignIn = z.infer<typeof SignInSchema>;

/** A context's name as part of a file name: itself when it is plain, else a digest of it. */
const fileSafe = (context: string): string =>
  /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/.test(context)
    ? context
    : createHash('sha256').update(context).digest('hex').slice(0, 16);

/**
 * The sign-in's file, beside the database (the data directory): `signin.json`, or
 * `signin.<context>.json` under a named context (`--context`, BANKOPS_CONTEXT), so that two
 * contexts sharing a data directory keep their own sign-ins.
 */
export const signInPath = (databasePath: string, context?: string): string =>
  join(dirname(databasePath), context === undefined ? 'signin.json' : `signin.${fileSafe(context)}.json`);

export function readSignIn(path: string): SignIn | undefined {
  if (!existsSync(path)) return undefined;
  const parsed = SignInSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  return parsed.success ? parsed.data : undefined;
}

export function writeSignIn(path: string, signIn: SignIn): void {
  // Created 0600 and set again: an older file of wider mode is narrowed too.
  writeFileSync(path, `${JSON.stringify(signIn)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function removeSignIn(path: string): boolean {
  if (!existsSync(path)) return false;
  rmSync(path);
  return true;
}
