import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { ServiceError } from '../../src/core/client/index.js';
import type { CreateCardholderABody } from '../../src/core/client/schemas/issuing-a.js';
import type { CreateCardholderBBody } from '../../src/core/client/schemas/issuing-b.js';

/** The error a call ends with; fails the test if it succeeds or throws something else. */
export async function failureOf(call: Promise<unknown>): Promise<ServiceError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/**
 * Checks a business-rule refusal came back from the service (not from the client's own checks):
 * HTTP 400, the operation, the request id the caller chose, and a message naming the rule.
 */
export function expectServiceRefusal(
  error: ServiceError,
  operation: string,
  requestId: string,
  rule: RegExp,
): void {
  expect(error.kind).toBe('service');
  expect(error.httpStatus).toBe(400);
  expect(error.serviceCode).toBe(400);
  expect(error.operation).toBe(operation);
  expect(error.requestId).toBe(requestId);
  expect(error.serviceMessage).toMatch(rule);
  expect(error.message).toContain(operation);
  expect(error.message).toContain(requestId);
}

/** Checks none of the secrets, nor anything shaped like a full card number, appears in the error's text. */
export function expectNoSecrets(error: ServiceError, secrets: readonly string[]): void {
  const text = [error.message, error.serviceMessage, ...error.issues].join('\n');
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/\d{13,19}/);
}

/** A unique e-mail address, so cardholders created by different tests never collide. */
export const uniqueEmail = (who: string): string => `${who}.${randomUUID().slice(0, 8)}@client-test.example`;

/** `YYYY-MM-DD` of the day `years` years before `now` (UTC): a person exactly that old today. */
export function birthDateYearsAgo(now: Date, years: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

/** A valid family A cardholder body. */
export function cardholderABody(overrides: Partial<CreateCardholderABody> = {}): CreateCardholderABody {
  return {
    email: uniqueEmail('dana'),
    mobile_number: '81234567',
    country_code: 'SG',
    individual: {
      date_of_birth: '1992-03-14',
      name: { first_name: 'Dana', last_name: 'Lim', name_on_card: 'DANA LIM' },
      address: {
        line1: '1 Raffles Place',
        city: 'Singapore',
        state: 'Singapore',
        country: 'SG',
        postcode: '048616',
      },
    },
    type: 'INDIVIDUAL',
    created_by: 'client-test',
    ...overrides,
  };
}

/** A valid family B cardholder body. */
export function cardholderBBody(overrides: Partial<CreateCardholderBBody> = {}): CreateCardholderBBody {
  return {
    title: 'Mrs',
    firstName: 'Elena',
    lastName: 'Rossi',
    preferredName: 'ELENA ROSSI',
    gender: 'F',
    dateOfBirth: '1988-07-21',
    mobileCountryName: 'SG',
    mobileCountryCode: '65',
    mobile: '91112222',
    nationality: 'IT',
    email: uniqueEmail('elena'),
    deliveryAddress1: '8 Shenton Way',
    deliveryAddress2: 'Unit 12-01',
    deliveryCity: 'Singapore',
    deliveryState: 'Singapore',
    deliveryCountry: 'SG',
    deliveryZipCode: '068811',
    billingAddress1: '8 Shenton Way',
    billingAddress2: 'Unit 12-01',
    billingCity: 'Singapore',
    billingState: 'Singapore',
    billingCountry: 'SG',
    billingZipCode: '068811',
    ...overrides,
  };
}
