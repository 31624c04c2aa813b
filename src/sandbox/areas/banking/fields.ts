import { z } from 'zod';
import { invalid } from '../../errors.js';
import type { SandboxContext, SandboxRequest } from '../../types.js';
import { optionalQuery, requiredQuery } from '../../validate.js';
import { isKnownCurrency, KNOWN_CURRENCIES } from './money.js';

/** Field rules shared by the banking bodies; messages read `field: <rule>` once parseInput adds the path. */
const orRequired =
  (rule: string) =>
  (issue: { input: unknown }): string =>
    issue.input === undefined ? 'is required' : rule;

const notBlank = (value: string): boolean => value.trim() !== '';

export const requiredString = () =>
  z
    .string({ error: orRequired('must be a string') })
    .refine(notBlank, { error: 'must not be empty', abort: true });

export const optionalString = () =>
  z.string({ error: 'must be a string' }).refine(notBlank, { error: 'must not be empty' }).optional();

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: orRequired(`must be one of ${values.join(', ')}`) });

export const positiveAmount = () =>
  z.number({ error: orRequired('must be a number') }).gt(0, { error: 'must be greater than 0' });

/** A currency the sandbox has rates for (upper-case ISO 4217). */
export const currencyCode = () =>
  requiredString().refine(isKnownCurrency, {
    error: (issue) => `unknown currency '${String(issue.input)}'; known: ${KNOWN_CURRENCIES.join(', ')}`,
  });

export const SIDES = ['SOURCE', 'TARGET'] as const;

/** `companyCode` values must name the configured company (the sandbox serves one). */
export function checkCompanyCode(ctx: SandboxContext, value: string): void {
  if (value !== ctx.credentials.companyId) throw invalid(`unknown companyCode '${value}'`);
}

/** The required `companyCode` query parameter, checked against the configured company. */
export function companyCodeQuery(ctx: SandboxContext, req: SandboxRequest): string {
  const value = requiredQuery(req, 'companyCode');
  checkCompanyCode(ctx, value);
  return value;
}

/**
 * The optional `currency` filter of the account list and the beneficiary options: a currency code
 * is three upper-case letters (ISO 4217), so `usd` is refused with 400 naming the rule rather than
 * read as USD or matching nothing. A well-formed code the sandbox does not hold matches nothing.
 */
export function currencyFilterQuery(req: SandboxRequest): string | undefined {
  const currency = optionalQuery(req, 'currency');
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) {
    throw invalid(
      `query parameter currency must be a 3-letter upper-case currency code (ISO 4217, e.g. USD), not '${currency}'`,
    );
  }
  return currency;
}
