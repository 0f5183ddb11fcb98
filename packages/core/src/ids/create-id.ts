import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Random bytes drawn from the CSPRNG in one call and handed out in slices: one syscall per ~170 ids, not per id. */
const pool = Buffer.alloc(4096);
let offset = pool.length;

/**
 * A random opaque id with a protocol-style prefix (`resp_`, `msg_`, `req_`, `call_`…): 24 base62
 * characters (≈143 bits), which also satisfies Anthropic's `^[a-zA-Z0-9_-]+$` id pattern. Not for
 * secrets (the modulo makes it very slightly non-uniform); API keys have their own generator.
 */
export function createId(prefix: string, length = 24): string {
  if (offset + length > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let id = prefix;
  for (let index = 0; index < length; index++) id += ALPHABET[pool[offset + index]! % 62];
  offset += length;
  return id;
}
