/**
 * Input fields a tool fills itself when they are left out: the company, program, agent and
 * sub-agent codes from the configuration (`ToolDefaults`), and the creator or editor the service
 * records, from the acting user. Never required; a front end may say so once instead of on every
 * field.
 */
export const CONFIGURED_FIELDS: readonly string[] = [
  'companyCode',
  'company_code',
  'programCode',
  'program_code',
  'agentCode',
  'agent_code',
  'subagentCode',
  'subagent_code',
];

export const ACTING_USER_FIELDS: readonly string[] = ['created_by', 'updated_by', 'createdBy', 'updatedBy'];
