import { optional } from './optional.js';
import type { EnvelopeKind, Reply } from './types.js';

/** Envelope of a success, per the spec's "Response envelopes". */
export function successBody(kind: EnvelopeKind, code: number, reply: Reply): unknown {
  switch (kind) {
    case 'banking':
      return {
        code,
        status: reply.statusWord ?? 'SUCCESS',
        message: reply.message ?? 'Success',
        data: reply.data,
      };
    case 'issuing':
      return {
        status: reply.statusWord ?? 'success',
        message: reply.message ?? 'Success',
        code,
        ...optional('data', reply.data),
        ...reply.fields,
      };
    case 'notification':
      return {
        ...optional('data', reply.data),
        message: reply.message ?? 'Success',
        status: reply.statusWord ?? 'success',
      };
    case 'bare':
      return reply.raw ?? reply.data ?? null;
  }
}

/** Envelope of a failure (spec "Errors": banking `{code, status, message}`, issuing `{code, message, status}`). */
export function errorBody(kind: EnvelopeKind, code: number, message: string): unknown {
  switch (kind) {
    case 'banking':
      return { code, status: 'error', message };
    case 'issuing':
      return { code, message, status: 'error' };
    case 'notification':
      return { status: 'error', message, code };
    case 'bare':
      return { status: 'error', message, code };
  }
}

/** Which envelope a path would answer in, for failures before a route is known. */
export function envelopeForPath(path: string): EnvelopeKind {
  if (path.startsWith('/svc/api/v1/notification')) return 'notification';
  if (path.startsWith('/svc/issuing') || path.startsWith('/issuing')) return 'issuing';
  if (path.startsWith('/_sandbox')) return 'bare';
  return 'banking';
}
