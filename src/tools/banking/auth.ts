import { z } from 'zod';
import { TokenDataSchema } from '../../core/client/schemas/auth.js';
import { UserSchema } from '../../core/client/schemas/users.js';
import { defineTool } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';

// The token itself is left out of the schema, and `run` copies fields one by one, so the bearer
// token can never reach a result, a chat message or the audit log.
const { token: _token, ...credentialFields } = TokenDataSchema.shape;
const CredentialsSchema = z.object(credentialFields);

export const checkCredentials = defineTool({
  name: 'check_credentials',
  title: 'Check service credentials',
  description:
    'Checks the configured service credentials: whom they belong to (userId, companyCode, email), the token lifetime in seconds; never the token.',
  toolset: 'banking',
  input: z.object({}),
  output: CredentialsSchema,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  async run(_input, ctx) {
    const data = await ctx.client.auth.issueToken(readOptions(ctx));
    return {
      tokenType: data.tokenType,
      expiresIn: data.expiresIn,
      userId: data.userId,
      companyCode: data.companyCode,
      email: data.email,
    };
  },
});

export const getUser = defineTool({
  name: 'get_user',
  title: 'Get user profile',
  description:
    'Looks up an onboarded user by e-mail: userId, companyCode, business name, country, KYC and account status.',
  toolset: 'banking',
  input: z.object({
    email: z.email().describe('E-mail the user was onboarded with.'),
  }),
  output: UserSchema,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  run: (input, ctx) => ctx.client.users.get({ email: input.email }, readOptions(ctx)),
});
