import type { ResponseStore } from '@signalbox/accounts';
import type { ResponseStoreConfig } from '../config/gateway-config';

/** What the gateway's handling of stored conversations needs from its engine. */
export type ConversationDependencies = {
  store: ResponseStore;
  retention: ResponseStoreConfig;
  now(): number;
  /** A response that could not be kept: reported (the answer itself goes on). */
  onStoreError(error: unknown): void;
};
