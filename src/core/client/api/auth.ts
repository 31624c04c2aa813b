import { type CallOptions, HttpClient } from '../http.js';
import { type GetUserQuery, GetUserQuerySchema, UserSchema } from '../schemas/users.js';

/** Authentication and users (spec "Authentication and users"). */
export function authApi(http: HttpClient) {
  return {
    /** POST /svc/api/v1/auth/token: a new bearer token. The client fetches and caches tokens itself. */
    issueToken: (options?: CallOptions) => http.issueToken(options),
  };
}

export function usersApi(http: HttpClient) {
  return {
    /** GET /svc/banking/api/v1/users?email=: the user profile and its `userId`, `companyCode`. */
    get: (query: GetUserQuery, options?: CallOptions) => {
      const q = HttpClient.checkRequest('users.get', GetUserQuerySchema, query);
      return http.call(
        {
          operation: 'users.get',
          method: 'GET',
          path: '/svc/banking/api/v1/users',
          headerSet: 'USERS',
          query: q,
          envelope: 'banking',
          response: UserSchema,
        },
        options,
      );
    },
  };
}
