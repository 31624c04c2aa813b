import { z } from 'zod';

/** User (spec "Resources: User"). */
export const UserSchema = z.looseObject({
  userId: z.string(),
  companyCode: z.string(),
  email: z.string(),
  name: z.string().nullish(),
  businessName: z.string().nullish(),
  entityType: z.string().nullish(),
  country: z.string().nullish(),
  kycStatus: z.string().nullish(),
  status: z.string().nullish(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
});

export const GetUserQuerySchema = z.object({ email: z.string().min(1) });
export type GetUserQuery = z.infer<typeof GetUserQuerySchema>;
