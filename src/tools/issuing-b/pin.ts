import { z } from 'zod';
import { PinUrlSchema } from '../../core/client/schemas/issuing-b.js';
import { defineTool } from '../../core/tool.js';
import { writeOptions } from '../shared/call-options.js';
import { cardInput, cardRef, FAMILY_B, SECRET_LINK } from './fields.js';

/**
 * The three PIN endpoints are GETs that hand out an iframe link through which the PIN is set. The
 * link lets whoever holds it change the card's PIN: a secret link (see SECRET_LINK).
 */
const output = PinUrlSchema;
const secretFields = ['set_pin_url'] as const;

const SHOW_ONLY =
  'Give it only to the cardholder or the requester, never in a shared channel: it sets the PIN.';

const getSetPinLinkB = defineTool({
  name: 'get_set_pin_link_b',
  title: 'Set-PIN link (family B)',
  description: `${FAMILY_B} Returns an iframe link (set_pin_url) where the cardholder sets a card's first PIN. ${SHOW_ONLY}`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output,
  hints: SECRET_LINK,
  secretFields,
  run: (input, ctx) => ctx.client.issuingB.getSetPinUrl(cardRef(input), writeOptions(ctx)),
});

const getResetPinLinkB = defineTool({
  name: 'get_reset_pin_link_b',
  title: 'Reset-PIN link (family B)',
  description: `${FAMILY_B} Returns an iframe link (set_pin_url) where the cardholder resets a forgotten PIN. ${SHOW_ONLY}`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output,
  hints: SECRET_LINK,
  secretFields,
  run: (input, ctx) => ctx.client.issuingB.getResetPinUrl(cardRef(input), writeOptions(ctx)),
});

const getChangePinLinkB = defineTool({
  name: 'get_change_pin_link_b',
  title: 'Change-PIN link (family B)',
  description: `${FAMILY_B} Returns an iframe link (set_pin_url) where the cardholder changes the card's PIN (a first one: get_set_pin_link_b). ${SHOW_ONLY}`,
  toolset: 'issuing_b',
  input: z.object(cardInput),
  output,
  hints: SECRET_LINK,
  secretFields,
  run: (input, ctx) => ctx.client.issuingB.getChangePinUrl(cardRef(input), writeOptions(ctx)),
});

export const pinTools = [getSetPinLinkB, getResetPinLinkB, getChangePinLinkB];
