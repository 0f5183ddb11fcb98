import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A random opaque id with a protocol-style prefix (`resp_`, `msg_`, `req_`, `call_`…): 24 base62
 * characters (≈143 bits), which also satisfies Anthropic's `^[a-zA-Z0-9_-]+$` id pattern.
 */
export function createId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (let index = 0; index < length; index++) id += ALPHABET[bytes[index]! % 62];
  return id;
}
