/**
 * The credentials and identifiers the sandbox accepts. They are read from the same environment
 * variables as the service client, so a client configured for the sandbox is accepted by it.
 * The defaults are for local use only and are documented in docs/sandbox.md.
 */
export interface SandboxCredentials {
  apiKey: string;
  productId: string;
  userId: string;
  companyId: string;
  userEmail: string;
  programCode: string;
  agentCode: string;
  subagentCode: string;
}

export const SANDBOX_DEFAULTS: Readonly<SandboxCredentials> = Object.freeze({
  apiKey: 'sandbox-api-key',
  productId: 'sandbox-product',
  userId: 'usr_demo_0001',
  companyId: 'CMP-DEMO',
  userEmail: 'treasury@demo.bankops.test',
  programCode: 'PRG-DEMO',
  agentCode: 'AGT-DEMO',
  subagentCode: 'SUB-DEMO',
});

const ENV_NAMES: Record<keyof SandboxCredentials, string> = {
  apiKey: 'BANKOPS_API_KEY',
  productId: 'BANKOPS_PRODUCT_ID',
  userId: 'BANKOPS_USER_ID',
  companyId: 'BANKOPS_COMPANY_ID',
  userEmail: 'BANKOPS_USER_EMAIL',
  programCode: 'BANKOPS_PROGRAM_CODE',
  agentCode: 'BANKOPS_AGENT_CODE',
  subagentCode: 'BANKOPS_SUBAGENT_CODE',
};

export function credentialsFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxCredentials {
  const out = { ...SANDBOX_DEFAULTS };
  for (const key of Object.keys(ENV_NAMES) as (keyof SandboxCredentials)[]) {
    const value = env[ENV_NAMES[key]];
    if (value !== undefined && value.trim() !== '') out[key] = value.trim();
  }
  return out;
}
