import { defineArea } from '../../area.js';
import type { SandboxContext } from '../../types.js';
import { controlRoutes } from './control-routes.js';
import { Dispatcher } from './delivery.js';
import { listRoutes } from './list-routes.js';
import { DEFAULT_SENDER } from './rules.js';
import type { NotificationsState, Subscription } from './state.js';
import { subscribeRoutes } from './subscribe-routes.js';

const SEED_TIME = new Date('2026-01-05T08:00:00Z').toUTCString();

/** Two e-mail subscriptions of the demo agent (docs/sandbox/notifications.md). */
function seed(ctx: SandboxContext): NotificationsState {
  const c = ctx.credentials;
  const email = (sl_no: number, event_name: Subscription['event_name']): Subscription => ({
    sl_no,
    event_name,
    subscription_type: 'n',
    agent_code: c.agentCode,
    subagent_code: c.subagentCode,
    program_code: c.programCode,
    company_code: c.companyId,
    webhook_url: null,
    sender_email: DEFAULT_SENDER,
    api_key: null,
    created_by: 'sandbox-seed',
    updated_by: null,
    created_time: SEED_TIME,
    updated_time: SEED_TIME,
  });
  return {
    subscriptions: [email(1, 'kyc_complete'), email(2, 'm2p_transfer')],
    nextSlNo: 3,
    deliveries: [],
  };
}

export const notificationsArea = defineArea<NotificationsState>({
  name: 'notifications',
  seed,
  routes: (ctx, state) => {
    const dispatcher = new Dispatcher(ctx, state);
    ctx.events.on(dispatcher.listener);
    return [
      ...listRoutes(ctx, state),
      ...subscribeRoutes(ctx, state),
      ...controlRoutes(ctx, state, dispatcher),
    ];
  },
});
