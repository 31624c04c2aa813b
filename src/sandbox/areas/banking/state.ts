/** State of the banking area (the banking helper extends this). */
export interface SandboxUser {
  userId: string;
  companyCode: string;
  email: string;
  name: string;
  businessName: string;
  entityType: 'COMPANY';
  country: string;
  kycStatus: 'APPROVED';
  status: 'ACTIVE';
  createdAt: string;
  updatedAt: string;
}

export interface BankingState {
  user: SandboxUser;
}
