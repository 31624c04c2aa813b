import type { RfiDetails } from '../../core/client/schemas/issuing-common.js';

/**
 * Whether an RFI answer describes an open request for information, the same for both issuing
 * families. The service answers "no RFI" either with no element (`undefined`) or with one element
 * whose decline-code lists are all empty and whose `declined_reason` is empty; a request is open
 * when it names at least one decline code or a non-blank reason.
 */
export function isRfiOpen(rfi: RfiDetails | null | undefined): boolean {
  if (rfi === null || rfi === undefined) return false;
  return (
    rfi.declined_reason.trim() !== '' ||
    Object.values(rfi.services_declined_codes).some((codes) => codes.length > 0)
  );
}
