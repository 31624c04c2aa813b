import { invalid } from '../../errors.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { isoUtc, requiredQuery } from '../../validate.js';
import type { BankingState } from './state.js';

/** POST /svc/api/v1/auth/token and GET /svc/banking/api/v1/users. */
export function authRoutes(ctx: SandboxContext, state: () => BankingState): RouteDef[] {
  return [
    {
      operation: 'auth.issueToken',
      method: 'POST',
      path: '/svc/api/v1/auth/token',
      envelope: 'banking',
      headers: 'TOKEN',
      successCode: 200,
      handler: () => {
        const user = state().user;
        const { token, expiresIn } = ctx.tokens.issue(user.userId, user.companyCode);
        return {
          data: {
            token,
            tokenType: 'Bearer',
            expiresIn,
            userId: user.userId,
            companyCode: user.companyCode,
            email: user.email,
          },
        };
      },
    },
    {
      operation: 'users.get',
      method: 'GET',
      path: '/svc/banking/api/v1/users',
      envelope: 'banking',
      headers: 'USERS',
      successCode: 200,
      handler: (req) => {
        const email = requiredQuery(req, 'email');
        const user = state().user;
        if (email.toLowerCase() !== user.email.toLowerCase()) throw invalid(`no user with email '${email}'`);
        return {
          data: {
            ...user,
            createdAt: isoUtc(new Date(user.createdAt)),
            updatedAt: isoUtc(new Date(user.updatedAt)),
          },
        };
      },
    },
  ];
}
