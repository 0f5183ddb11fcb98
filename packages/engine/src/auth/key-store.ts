/** What the gateway knows about one API key; never the key itself. */
export type ApiKeyRecord = {
  id: string;
  name: string;
  /** The visible start of the key (`sy-AbCd12`), safe to show in panels and logs. */
  prefix: string;
  status: 'active' | 'disabled';
  /** Expiry as a unix timestamp in milliseconds. */
  expiresAt?: number;
  group?: string;
  /** Exact model IDs this key may call; absent means every route. */
  allowedModels?: readonly string[];
};

/** Where keys are looked up. Implementations compare secrets in constant time. */
export interface KeyStore {
  /** The record of the key with this secret, or `undefined` for an unknown key. */
  verify(secret: string): Promise<ApiKeyRecord | undefined>;
}
