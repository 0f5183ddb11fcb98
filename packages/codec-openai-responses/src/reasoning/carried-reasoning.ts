import type { ReasoningPart } from '@signalbox/core';

/** Marks an `encrypted_content` the gateway wrote itself (not OpenAI's). Versioned for later formats. */
const PREFIX = 'swy1.';

type Carried = { t: string; s?: string; r?: string };

/**
 * Reasoning from an Anthropic upstream (signed thinking, or redacted thinking) has no Responses
 * field of its own. It rides in the reasoning item's `encrypted_content`, opaque to the client, so
 * a client that replays the item (stateless multi-turn) gives the gateway back the exact thinking
 * text and signature Anthropic requires to accept replayed thinking. `undefined` when there is
 * nothing to carry.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 * @see https://platform.openai.com/docs/api-reference/responses (reasoning item `encrypted_content`)
 */
export function packCarriedReasoning(part: Pick<ReasoningPart, 'text' | 'signature' | 'redactedData'>): string | undefined {
  if (part.signature === undefined && part.redactedData === undefined) return undefined;
  const carried: Carried = { t: part.text };
  if (part.signature !== undefined) carried.s = part.signature;
  if (part.redactedData !== undefined) carried.r = part.redactedData;
  return PREFIX + Buffer.from(JSON.stringify(carried)).toString('base64url');
}

/** The reasoning a replayed `encrypted_content` carries, or `undefined` when it is OpenAI's own blob. */
export function unpackCarriedReasoning(encrypted: string): ReasoningPart | undefined {
  if (!encrypted.startsWith(PREFIX)) return undefined;
  try {
    const carried = JSON.parse(Buffer.from(encrypted.slice(PREFIX.length), 'base64url').toString('utf8')) as Partial<Carried>;
    if (typeof carried.t !== 'string') return undefined;
    return {
      type: 'reasoning',
      text: carried.t,
      ...(typeof carried.s === 'string' && { signature: carried.s }),
      ...(typeof carried.r === 'string' && { redactedData: carried.r }),
    };
  } catch {
    return undefined;
  }
}
