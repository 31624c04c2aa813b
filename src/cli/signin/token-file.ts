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

/** The sign-in's file, beside the database (the data directory). */
export const signInPath = (databasePath: string): string => join(dirname(databasePath), 'signin.json');

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
