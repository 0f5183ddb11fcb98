/**
 * The Redis keys of one API key's limits. The key ID sits in a hash tag (`{…}`), so on a Redis
 * Cluster every key one script touches lives in the same slot.
 */
export function limitKey(keyPrefix: string, keyId: string, counter: string): string {
  return `${keyPrefix}{${keyId}}:${counter}`;
}

/** The five keys of a concurrency gate, in the order the gate scripts expect them. */
export function gateKeys(keyPrefix: string, keyId: string): string[] {
  return ['holders', 'starts', 'queue', 'tickets', 'state'].map(part => limitKey(keyPrefix, keyId, `gate:${part}`));
}
