import type { AreaInstaller } from '../area.js';
import { bankingArea } from './banking/index.js';
import { issuingAArea } from './issuing-a/index.js';
import { issuingBArea } from './issuing-b/index.js';
import { notificationsArea } from './notifications/index.js';

/** Every area of the service the sandbox implements; the notifications area listens to the others' events. */
export const SANDBOX_AREAS: readonly AreaInstaller[] = [
  bankingArea,
  issuingAArea,
  issuingBArea,
  notificationsArea,
];
