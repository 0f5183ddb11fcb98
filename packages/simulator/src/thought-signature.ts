import { createHmac, timingSafeEqual } from 'node:crypto';

/** The simulator's own signing key: signatures are opaque to clients, checkable by any simulator. */
const SIGNING_KEY = 'signalbox-simulator-thought-signature';
const OPAQUE_BYTES = 24;
const TAG_BYTES = 16;

/**
 * The sentinel Google documents for history the model never signed (turns built by hand or taken
 * from another model), which Gemini CLI puts on unsigned calls: accepted in place of a signature.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
const VALIDATION_SKIP = 'skip_thought_signature_validator';

/** A Gemini `thoughtSignature` for an answer: `seed` (base64) made opaque and tagged, so only an unchanged one verifies. */
export function issueThoughtSignature(seed: string): string {
  const opaque = Buffer.alloc(OPAQUE_BYTES);
  Buffer.from(seed, 'base64').copy(opaque);
  return Buffer.concat([opaque, tagOf(opaque)]).toString('base64');
}

/** True for a signature this simulator issued, byte for byte, or one of the documented sentinels. */
export function isValidThoughtSignature(signature: string): boolean {
  if (signature === VALIDATION_SKIP) return true;
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length !== OPAQUE_BYTES + TAG_BYTES || bytes.toString('base64') !== signature) return false;
  return timingSafeEqual(bytes.subarray(OPAQUE_BYTES), tagOf(bytes.subarray(0, OPAQUE_BYTES)));
}

function tagOf(opaque: Buffer): Buffer {
  return createHmac('sha256', SIGNING_KEY).update(opaque).digest().subarray(0, TAG_BYTES);
}
