import type { AddressBody, CreateCardholderBody, NameBody } from './schemas.js';
import type { AddressA, CardholderRecord, CardholderStatus, KycRecord, NameA } from './state.js';

/** Builds stored cardholders from request bodies, for the create endpoint and the seed alike. */

export const toAddress = (a: AddressBody): AddressA => ({
  line1: a.line1,
  line2: a.line2 ?? null,
  city: a.city,
  state: a.state,
  country: a.country,
  postcode: a.postcode,
});

/** Optional name parts left out of the request read as null: title, middle_name, name_on_card. */
export const toName = (n: NameBody): NameA => ({
  title: n.title ?? null,
  first_name: n.first_name,
  middle_name: n.middle_name ?? null,
  last_name: n.last_name,
  name_on_card: n.name_on_card ?? null,
});

export function newCardholderRecord(args: {
  id: string;
  body: CreateCardholderBody;
  createdAt: string;
  agentCode: string;
  subagentCode: string;
  status: CardholderStatus;
  kycStatus: string | null;
  reviewStatus: string;
  kyc: KycRecord;
}): CardholderRecord {
  const { body } = args;
  const address = toAddress(body.individual.address);
  return {
    view: {
      id: args.id,
      email: body.email,
      country_code: body.country_code ?? address.country,
      mobile_number: body.mobile_number,
      kyc_status: args.kycStatus,
      status: args.status,
      type: 'INDIVIDUAL',
      // The create body has no postal address; it starts as the individual's address.
      postal_address: { ...address },
      individual: {
        address,
        date_of_birth: body.individual.date_of_birth,
        employers: null,
        name: toName(body.individual.name),
      },
      created_at: args.createdAt,
      review_status: args.reviewStatus,
    },
    agentCode: args.agentCode,
    subagentCode: args.subagentCode,
    createdBy: body.created_by,
    updatedBy: null,
    kyc: args.kyc,
  };
}
