/** Action ids of the buttons bankops puts on messages. */
export const ACTIONS = {
  share: 'bankops_share',
  /** The next page of an answer too long for one message. */
  morePage: 'bankops_more_page',
  /** The next page of a list the service pages (transactions). */
  serviceNext: 'bankops_service_next',
} as const;

/** Callback ids of the modals bankops opens. */
export const VIEWS = {
  /** A tool's form, generated from its input schema. */
  toolForm: 'bankops_tool_form',
  /** The beneficiary form, step one: the corridor. */
  beneficiaryCorridor: 'bankops_beneficiary_corridor',
  /** The beneficiary form, step two: the fields the corridor's JSON Schema demands. */
  beneficiaryFields: 'bankops_beneficiary_fields',
} as const;
