import { createMemoryAccountStore } from '@switchyard/engine';
import { describeAccountStoreContract } from './account-store-contract';

describeAccountStoreContract('memory', () =>
  createMemoryAccountStore({ serverSecret: 'memory-contract-server-secret' }),
);
