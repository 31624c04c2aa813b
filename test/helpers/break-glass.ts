import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The shipped policy with two admins who may break the glass and close reviews (ada, bob, cy), a
// payout rule needing two approvers, cooling-off asking one more approver, and break-glass on.
const SHIPPED = readFileSync(fileURLToPath(new URL('../../policy/default.yaml', import.meta.url)), 'utf8');
export const BREAK_GLASS_POLICY = `${SHIPPED.replace(
  '  - match: { cli: "*" }\n',
  `  - match: { cli: ada }
    roles: [admin]
  - match: { cli: bob }
    roles: [admin]
  - match: { cli: cy }
    roles: [admin]
  - match: { cli: "*" }\n`,
)}
payees:
  coolingOff: { period: 24h, action: extraApprover }
breakGlass:
  role: admin
  max: { USD: 10000, default: 5000 }
  review: { role: admin, people: 2 }
`;

/** The same, with break-glass confirmed by a passkey (`breakGlass.stepUp: passkey`). */
export const BREAK_GLASS_STEP_UP_POLICY = BREAK_GLASS_POLICY.replace(
  'breakGlass:\n  role: admin\n',
  'breakGlass:\n  role: admin\n  stepUp: passkey\n',
);
