import { createMemoryAccountStore } from '@signalbox/accounts';
import { describeAccountStoreContract } from './account-store-contract';

describeAccountStoreContract('memory', clock =>
  createMemoryAccountStore({ serverSecret: 'memory-contract-server-secret', ...clock }),
);
