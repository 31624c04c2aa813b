import { invalid } from '../../../errors.js';
import type { RouteDef, SandboxContext } from '../../../types.js';
import {
  optionalQuery,
  pageNumberQuery,
  pageSizeQuery,
  paginate,
  parseInput,
  requiredQuery,
  spaceTimestamp,
} from '../../../validate.js';
import { newCardholderRecord, toAddress, toName } from '../cardholder-record.js';
import { kycLinkFor, NEW_CARDHOLDER } from '../defaults.js';
import { cardholderById, PREFIX } from '../lookup.js';
import { checkAge, screenName } from '../rules.js';
import { CreateCardholderBody, UpdateCardholderBody } from '../schemas.js';
import {
  CARDHOLDER_STATUSES,
  type CardholderRecord,
  type CardholderStatus,
  type IssuingAState,
} from '../state.js';

const PATH = `${PREFIX}/card/cardholder`;
const view = (record: CardholderRecord) => structuredClone(record.view);
const isStatus = (value: string): value is CardholderStatus =>
  (CARDHOLDER_STATUSES as readonly string[]).includes(value);

/** POST, GET and PATCH /card/cardholder. */
export function cardholderRoutes(ctx: SandboxContext, state: () => IssuingAState): RouteDef[] {
  return [
    {
      operation: 'issuingA.createCardholder',
      method: 'POST',
      path: PATH,
      envelope: 'issuing',
      headers: 'HA',
      requiredHeaders: ['agent-code', 'subagent-code'],
      successCode: 201,
      idempotent: true,
      handler: (req) => {
        const body = parseInput(CreateCardholderBody, req.body);
        checkAge(body.individual.date_of_birth, ctx.clock.now());
        screenName(body.individual.name);
        const id = ctx.newId('cha');
        const agentCode = req.header('agent-code') ?? '';
        const subagentCode = req.header('subagent-code') ?? '';
        const record = newCardholderRecord({
          id,
          body,
          createdAt: spaceTimestamp(ctx.clock.now()),
          agentCode,
          subagentCode,
          status: NEW_CARDHOLDER.status,
          kycStatus: NEW_CARDHOLDER.kycStatus,
          reviewStatus: NEW_CARDHOLDER.reviewStatus,
          kyc: {
            kycStatus: 'PENDING',
            complianceStatus: 'IN_PROGRESS',
            documentType: 'E_KYC',
            kycLink: kycLinkFor(id),
            rfi: null,
          },
        });
        state().cardholders.set(id, record);
        ctx.events.emit({
          eventName: 'cardholder_create',
          data: { cardholderId: id },
          agentCode,
          subagentCode,
        });
        return { data: [{ id }], message: 'Cardholder created successfully' };
      },
    },
    {
      // One route for the list and the single lookup (`id` or `email`), as the spec has one path.
      operation: 'issuingA.listCardholders',
      method: 'GET',
      path: PATH,
      envelope: 'issuing',
      headers: 'HA',
      successCode: 200,
      handler: (req) => {
        const s = state();
        const id = optionalQuery(req, 'id');
        const email = optionalQuery(req, 'email');
        if (id !== undefined) {
          const record = cardholderById(s, id);
          if (email !== undefined && record.view.email.toLowerCase() !== email.toLowerCase()) {
            throw invalid(`cardholder '${id}' does not have the email '${email}'`);
          }
          return { data: [view(record)], message: 'Cardholder fetched successfully' };
        }
        if (email !== undefined) {
          const matches = [...s.cardholders.values()].filter(
            (c) => c.view.email.toLowerCase() === email.toLowerCase(),
          );
          if (matches.length === 0) throw invalid(`no cardholder with email '${email}'`);
          return { data: matches.map(view), message: 'Cardholder fetched successfully' };
        }

        const status = optionalQuery(req, 'status');
        if (status !== undefined && !isStatus(status)) {
          throw invalid(`query parameter status must be one of ${CARDHOLDER_STATUSES.join(', ')}`);
        }
        const page = pageNumberQuery(req, 'page_num');
        const size = pageSizeQuery(req, 'page_size');
        // Newest first: a cardholder just created is on the first page.
        const all = [...s.cardholders.values()]
          .reverse()
          .filter((c) => status === undefined || c.view.status === status);
        const slice = paginate(all, page, size);
        return {
          data: slice.items.map(view),
          fields: { totalcount: slice.total },
          message: 'Cardholders fetched successfully',
        };
      },
    },
    {
      operation: 'issuingA.updateCardholder',
      method: 'PATCH',
      path: PATH,
      envelope: 'issuing',
      headers: 'HA',
      successCode: 200,
      handler: (req) => {
        const record = cardholderById(state(), requiredQuery(req, 'id'));
        const body = parseInput(UpdateCardholderBody, req.body);
        if ((body.mobile_number === undefined) !== (body.country_code === undefined)) {
          throw invalid('mobile_number and country_code can only be updated together: give both or neither');
        }
        const individual = body.individual ?? {};
        const changed = [
          ...(body.email === undefined ? [] : ['email']),
          ...(body.mobile_number === undefined ? [] : ['mobile_number', 'country_code']),
          ...Object.entries(individual)
            .filter(([, value]) => value !== undefined)
            .map(([key]) => `individual.${key}`),
        ];
        if (changed.length === 0) {
          throw invalid(
            'nothing to update: give email, mobile_number with country_code, or individual.name, ' +
              'individual.address or individual.date_of_birth',
          );
        }
        if (individual.date_of_birth !== undefined) checkAge(individual.date_of_birth, ctx.clock.now());
        if (individual.name !== undefined) screenName(individual.name);

        const v = record.view;
        if (body.email !== undefined) v.email = body.email;
        if (body.mobile_number !== undefined && body.country_code !== undefined) {
          v.mobile_number = body.mobile_number;
          v.country_code = body.country_code;
        }
        if (individual.date_of_birth !== undefined) v.individual.date_of_birth = individual.date_of_birth;
        if (individual.name !== undefined) v.individual.name = toName(individual.name);
        if (individual.address !== undefined) {
          // The postal address started as the individual's address and moves with it.
          v.individual.address = toAddress(individual.address);
          v.postal_address = toAddress(individual.address);
        }
        record.updatedBy = body.updated_by;
        ctx.events.emit({
          eventName: 'cardholder_update',
          data: { cardholderId: v.id, fields: changed },
          agentCode: record.agentCode,
          subagentCode: record.subagentCode,
        });
        return { message: 'Cardholder updated successfully' };
      },
    },
  ];
}
