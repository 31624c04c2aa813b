import type { RouteDef, SandboxRequest } from '../../types.js';
import { assertChangeable, cardRequest } from './identity.js';
import { pinLink } from './links.js';
import { CARD, hb2 } from './route.js';
import type { IssuingBState } from './state.js';

type Step = 'set' | 'reset' | 'change';

/**
 * The PIN iframes. The PIN itself is entered in the iframe, outside this interface, so the sandbox
 * counts the PIN as set once a set or reset link is handed out (docs/sandbox.md). A change link is
 * handed out whether or not a PIN is set: the iframe deals with a card that has none, and handing
 * it out does not mark the PIN set.
 */
function pinRoute(operation: string, path: string, step: Step, state: () => IssuingBState): RouteDef {
  return hb2({
    operation,
    method: 'GET',
    path,
    requiredHeaders: CARD,
    handler: (req: SandboxRequest) => {
      const { card } = cardRequest(req, state());
      assertChangeable(card);
      if (step !== 'change') card.pinSet = true;
      return { data: [{ set_pin_url: pinLink(step) }] };
    },
  });
}

export function pinRoutes(state: () => IssuingBState): RouteDef[] {
  return [
    pinRoute('issuingB.getSetPinUrl', '/card/setpin', 'set', state),
    pinRoute('issuingB.getResetPinUrl', '/card/resetpin', 'reset', state),
    pinRoute('issuingB.getChangePinUrl', '/card/changepin', 'change', state),
  ];
}
