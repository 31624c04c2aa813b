import { z } from 'zod';

/** `data` of POST /svc/api/v1/auth/token. */
export const TokenDataSchema = z.looseObject({
  token: z.string().min(1),
  tokenType: z.string(),
  expiresIn: z.number().positive(),
  userId: z.string(),
  companyCode: z.string(),
  email: z.string(),
});
