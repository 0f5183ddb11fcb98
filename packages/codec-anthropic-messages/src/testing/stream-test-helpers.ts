import {
  GatewayError,
  type EncodeContext,
  type GenerationRequest,
  type SSEMessage,
  type StreamEvent,
  type Usage,
} from '@signalbox/core';
import { testEncodeContext } from '@signalbox/core/testing';
import { createAnthropicStreamEncoder } from '../stream/encode-anthropic-stream';

/** A minimal client request for encoder contexts (Anthropic requests always carry `max_tokens`). */
export function testContext(overrides: Partial<GenerationRequest> = {}): EncodeContext {
  return testEncodeContext({ maxOutputTokens: 100, ...overrides }, 1_700_000_000);
}

/** Usage with every count known. */
export function fullUsage(overrides: Partial<Usage> = {}): Usage {
  return {
    inputTokens: 1312,
    outputTokens: 9,
    cacheReadTokens: 1200,
    cacheWriteTokens: 100,
    cacheWrite1hTokens: undefined,
    reasoningTokens: 0,
    ...overrides,
  };
}

/** Runs IR events through a fresh encoder, then `end()`. */
export function encodeEvents(events: readonly StreamEvent[], context = testContext()): SSEMessage[] {
  const encoder = createAnthropicStreamEncoder(context);
  return [...events.flatMap(event => encoder.push(event)), ...encoder.end()];
}

/** Wire JSON as assertions read it: any path, checked by the matchers rather than the compiler. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only loose reads of parsed wire JSON
export type WirePayload = Record<string, any>;

/** Each message's parsed `data`. */
export function payloads(messages: readonly SSEMessage[]): WirePayload[] {
  return messages.map(message => JSON.parse(message.data) as WirePayload);
}

/** Minted ids are random; tests compare them as a placeholder. */
export function withStableIds(text: string): string {
  return text.replace(/msg_[A-Za-z0-9]{24}/g, 'msg_<id>');
}

export const overloaded = (): GatewayError =>
  new GatewayError({
    code: 'UPSTREAM_OVERLOADED',
    message: 'Upstream error: Overloaded',
    upstream: { type: 'overloaded_error' },
  });
