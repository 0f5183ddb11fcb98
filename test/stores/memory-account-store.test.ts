import { createMemoryAccountStore } from '@switchyard/accounts';
import { describeAccountStoreContract } from './account-store-contract';

describeAccountStoreContract('memory', () =>
  createMemoryAccountStore({ serverSecret: 'memory-contract-server-secret' }),
);
