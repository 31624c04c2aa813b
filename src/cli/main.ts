import { ConfigError } from '../core/config.js';
import { PolicyError } from '../core/policy/errors.js';
import { APPROVALS_HELP, approvalsCommand } from './commands/approvals.js';
import { AUDIT_HELP, auditCommand } from './commands/audit.js';
import { CALL_HELP, callCommand } from './commands/call.js';
import { SANDBOX_HELP, sandboxCommand } from './commands/sandbox.js';
import { TOOLS_HELP, toolsCommand } from './commands/tools.js';
import { EXIT, UsageError } from './io.js';

export const HELP = `bankops: chat-ops, MCP tools and CLI for the banking, card-issuing and notification service

Usage:
  bankops tools [--toolset <a,b>] [--read-only] [--json]   list the tools
  bankops call <tool> --input '<json>' [--as <name>]       run a tool (validation, policy, approvals, audit)
  bankops approvals list|show|approve|reject|cancel        decide on pending approvals
  bankops audit tail|verify|export                         read and check the audit log
  bankops sandbox [--port <port>]                          run the sandbox of the service
  bankops help [<command>]                                 show help

With no BANKOPS_BASE_URL, call and approvals use the embedded sandbox, whose state persists in the
database (BANKOPS_DB, default ~/.local/share/bankops/bankops.db) across commands.

Environment:
  BANKOPS_BASE_URL, BANKOPS_API_KEY, BANKOPS_PRODUCT_ID, BANKOPS_USER_ID, BANKOPS_COMPANY_ID
                      the service and its credentials (all four required with a base URL)
  BANKOPS_PROGRAM_CODE, BANKOPS_AGENT_CODE, BANKOPS_SUBAGENT_CODE
                      defaults for tool inputs
  BANKOPS_DB          database file (audit log, approvals, embedded sandbox state)
  BANKOPS_POLICY      policy file (default: the shipped policy/default.yaml)
  BANKOPS_ACTOR       who is acting at the CLI (default: the OS user; --as overrides)
`;

const COMMAND_HELP: Record<string, string> = {
  tools: TOOLS_HELP,
  call: CALL_HELP,
  approvals: APPROVALS_HELP,
  audit: AUDIT_HELP,
  sandbox: SANDBOX_HELP,
};

async function dispatch(argv: string[]): Promise<number | 'running'> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'tools':
      return toolsCommand(rest);
    case 'call':
      return callCommand(rest);
    case 'approvals':
      return approvalsCommand(rest);
    case 'audit':
      return auditCommand(rest);
    case 'sandbox':
      return sandboxCommand(rest);
    case undefined:
    case '--help':
    case '-h':
      process.stdout.write(HELP);
      return command === undefined ? EXIT.usage : EXIT.ok;
    case 'help': {
      const topic = rest[0];
      process.stdout.write(
        topic !== undefined && topic in COMMAND_HELP ? (COMMAND_HELP[topic] ?? HELP) : HELP,
      );
      return EXIT.ok;
    }
    default:
      throw new UsageError(`unknown command '${command}'`, HELP);
  }
}

/** Runs the CLI; resolves to the exit status, or `'running'` for servers that keep the process alive. */
export async function main(argv: string[]): Promise<number | 'running'> {
  try {
    return await dispatch(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`bankops: ${error.message}\n${error.help === undefined ? '' : `\n${error.help}`}`);
      return EXIT.usage;
    }
    if (error instanceof ConfigError || error instanceof PolicyError) {
      process.stderr.write(`bankops: ${error.message}\n`);
      return EXIT.usage;
    }
    if (
      error instanceof Error &&
      error.name === 'TypeError' &&
      'code' in error &&
      String(error.code).startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`bankops: ${error.message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`bankops: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}
