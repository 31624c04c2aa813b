import type { RouteDef, SandboxContext } from '../../types.js';
import { parseInput, requiredQuery } from '../../validate.js';
import { EVENT_CATALOG } from './catalog.js';
import { toRecord } from './records.js';
import { checkProgram } from './rules.js';
import { ListBody } from './schemas.js';
import type { NotificationsState } from './state.js';

const PREFIX = '/svc/api/v1/notification';

/** GET /getallwebhooks (the event catalog) and POST /subscribedwebhook (subscriptions of an agent). */
export function listRoutes(ctx: SandboxContext, state: () => NotificationsState): RouteDef[] {
  return [
    {
      operation: 'notifications.listEvents',
      method: 'GET',
      path: `${PREFIX}/getallwebhooks`,
      envelope: 'notification',
      headers: 'NOTIFY',
      successCode: 200,
      handler: (req) => {
        const program = requiredQuery(req, 'program_code');
        checkProgram(ctx, program);
        return {
          data: EVENT_CATALOG.map((e) => ({
            event_description: e.event_description,
            event_name: e.event_name,
            program_code: program,
          })),
        };
      },
    },
    {
      operation: 'notifications.listSubscriptions',
      method: 'POST',
      path: `${PREFIX}/subscribedwebhook`,
      // The spec answers with a bare array; failures still use the notification error shape.
      envelope: 'bare',
      headers: 'NOTIFY',
      successCode: 200,
      handler: (req) => {
        const program = requiredQuery(req, 'program_code');
        checkProgram(ctx, program);
        const body = parseInput(ListBody, req.body);
        const records = state()
          .subscriptions.filter(
            (s) =>
              s.program_code === program &&
              s.agent_code === body.agent_code &&
              s.subagent_code === body.subagent_code,
          )
          .sort((a, b) => a.sl_no - b.sl_no)
          .map(toRecord);
        return { raw: records };
      },
    },
  ];
}
