import { optional } from '../../optional.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { parseInput } from '../../validate.js';
import type { Dispatcher } from './delivery.js';
import { checkEvent } from './rules.js';
import { EmitBody } from './schemas.js';
import type { NotificationsState } from './state.js';

const PREFIX = '/_sandbox/notifications';

/** The sandbox's own view of deliveries, and a way to emit an event without running an operation. */
export function controlRoutes(
  ctx: SandboxContext,
  state: () => NotificationsState,
  dispatcher: Dispatcher,
): RouteDef[] {
  return [
    {
      operation: 'sandbox.notifications.deliveries',
      method: 'GET',
      path: `${PREFIX}/deliveries`,
      envelope: 'bare',
      headers: 'none',
      successCode: 200,
      handler: () => ({ raw: { deliveries: state().deliveries.map((d) => ({ ...d })) } }),
    },
    {
      operation: 'sandbox.notifications.emit',
      method: 'POST',
      path: `${PREFIX}/emit`,
      envelope: 'bare',
      headers: 'none',
      successCode: 200,
      idempotent: true,
      handler: (req) => {
        const body = parseInput(EmitBody, req.body);
        const eventName = checkEvent(body.event_name);
        dispatcher.last = undefined;
        ctx.events.emit({
          eventName,
          data: body.data ?? {},
          ...optional('agentCode', body.agent_code),
          ...optional('subagentCode', body.subagent_code),
        });
        // Emitting is synchronous, so `last` is this event's result.
        const result = dispatcher.last;
        return { raw: result ?? { event_name: eventName, deliveries: [] } };
      },
    },
  ];
}
