/**
 * The subscribable events (spec "Events"), in the order the spec lists them, with the descriptions
 * the catalog endpoint returns.
 */
export const EVENT_CATALOG = [
  { event_name: 'card_create', event_description: 'card creation' },
  { event_name: 'card_activate', event_description: 'card activated' },
  { event_name: 'card_status', event_description: 'card status change' },
  { event_name: 'card_configuration', event_description: 'card configuration change' },
  { event_name: 'card_enroll3DS', event_description: 'card enrollment in 3DS' },
  { event_name: 'card_update3DSmethod', event_description: '3DS method update' },
  { event_name: 'cardholder_create', event_description: 'cardholder creation' },
  { event_name: 'cardholder_update', event_description: 'cardholder update' },
  { event_name: 'wallet_create', event_description: 'wallet creation' },
  { event_name: 'p2p_transfer', event_description: 'peer-to-peer transfer' },
  { event_name: 'm2p_transfer', event_description: 'master-to-peer transfer' },
  { event_name: 'kyc_complete', event_description: 'KYC completed' },
  { event_name: 'kyc_rfi_responded', event_description: 'RFI responded' },
] as const;

export type EventName = (typeof EVENT_CATALOG)[number]['event_name'];

export const EVENT_NAMES: readonly EventName[] = EVENT_CATALOG.map((e) => e.event_name);

export function isCatalogEvent(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}

export function describeEvent(name: EventName): string {
  return EVENT_CATALOG.find((e) => e.event_name === name)?.event_description ?? name;
}
