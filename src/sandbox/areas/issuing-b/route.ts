import { optional } from '../../optional.js';
import type { Reply, RouteDef, SandboxRequest } from '../../types.js';

/** Family B paths carry the version as a parameter; the framework refuses anything but v1. */
export const PREFIX = '/issuing/api/:version';

interface Hb2Route {
  operation: string;
  method: RouteDef['method'];
  /** Path after the version segment, e.g. `/card/list`. */
  path: string;
  requiredHeaders?: readonly string[];
  idempotent?: boolean;
  handler(req: SandboxRequest): Reply;
}

/** A family B endpoint: header set HB2, issuing envelope, 200 on success. */
export function hb2(def: Hb2Route): RouteDef {
  return {
    operation: def.operation,
    method: def.method,
    path: `${PREFIX}${def.path}`,
    envelope: 'issuing',
    headers: 'HB2',
    successCode: 200,
    ...optional('requiredHeaders', def.requiredHeaders),
    ...optional('idempotent', def.idempotent),
    handler: def.handler,
  };
}

/** A sandbox control route of this area, under `/_sandbox/issuing-b/...`, answering bare JSON. */
export function control(
  operation: string,
  path: string,
  handler: (req: SandboxRequest) => unknown,
): RouteDef {
  return {
    operation: `issuingB.control.${operation}`,
    method: 'POST',
    path: `/_sandbox/issuing-b${path}`,
    envelope: 'bare',
    headers: 'none',
    successCode: 200,
    handler: (req) => ({ raw: handler(req) }),
  };
}

/** Header sets per endpoint group (spec "Issuing family B"). */
export const HOLDER = ['x-cardholder-id'] as const;
export const WALLET = ['x-cardholder-id', 'x-wallet-id'] as const;
export const CARD = ['x-cardholder-id', 'x-wallet-id', 'x-card-id'] as const;
export const HASH = ['x-cardholderHash-id'] as const;
