import { randomBytes } from 'node:crypto';

/** A fresh opaque id with a protocol's conventional prefix (`resp_`, `msg_`, `toolu_`, `call_`, …). */
export function createId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}
