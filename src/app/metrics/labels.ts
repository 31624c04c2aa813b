/**
 * Label values of the metrics, each from a closed set: never an id, an amount or anything a person
 * typed, so the number of series stays bounded whatever the traffic.
 */

/** The Slack Web API methods bankops calls; any other is counted as `other`. */
export const WEB_API_METHODS = [
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'conversations.open',
  'usergroups.users.list',
  'views.open',
  'views.publish',
  'views.update',
] as const;

const slackMethods: ReadonlySet<string> = new Set(WEB_API_METHODS);

export const slackMethodLabel = (method: string): string => (slackMethods.has(method) ? method : 'other');

/** How the service call ended besides an HTTP status (src/core/client/errors.ts, `ServiceErrorKind`). */
const SERVICE_KINDS: ReadonlySet<string> = new Set([
  'timeout',
  'network',
  'invalid_response',
  'invalid_request',
  'not_sent',
]);

/** The HTTP status as a number (100–599), else how the call failed without one. */
export function serviceStatusLabel(httpStatus: number | undefined, errorKind: string | undefined): string {
  if (httpStatus !== undefined && Number.isInteger(httpStatus) && httpStatus >= 100 && httpStatus < 600)
    return String(httpStatus);
  return errorKind !== undefined && SERVICE_KINDS.has(errorKind) ? errorKind : 'error';
}

/**
 * A client operation (`payouts.create`): written in the client's code, never built from input. The
 * shape is checked all the same, so a slip there cannot turn an id into a label.
 */
export const operationLabel = (operation: string): string =>
  /^[a-z][a-zA-Z]{0,30}(\.[a-zA-Z_]{1,30}){0,3}$/.test(operation) ? operation : 'other';
