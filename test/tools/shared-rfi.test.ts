import { describe, expect, it } from 'vitest';
import { isRfiOpen } from '../../src/tools/shared/rfi.js';

// The one rule both families' get_rfi tools use to tell an open RFI from none.

const rfi = (address: string[], document: string[], declined_reason: string) => ({
  services_declined_codes: { address, document },
  declined_reason,
});

describe('isRfiOpen', () => {
  it('is false when the service reports none: no element, or empty lists and reason', () => {
    expect(isRfiOpen(undefined)).toBe(false);
    expect(isRfiOpen(null)).toBe(false);
    expect(isRfiOpen(rfi([], [], ''))).toBe(false);
    expect(isRfiOpen(rfi([], [], '   '))).toBe(false);
    expect(isRfiOpen({ services_declined_codes: {}, declined_reason: '' })).toBe(false);
  });

  it('is true with a decline code in any area or a reason alone', () => {
    expect(isRfiOpen(rfi(['ADDRESS_PROOF_EXPIRED'], [], ''))).toBe(true);
    expect(isRfiOpen(rfi([], ['DOCUMENT_UNREADABLE'], ''))).toBe(true);
    expect(isRfiOpen({ services_declined_codes: { selfie: ['BLURRED'] }, declined_reason: '' })).toBe(true);
    expect(isRfiOpen(rfi([], [], 'Address proof older than 3 months'))).toBe(true);
  });
});
