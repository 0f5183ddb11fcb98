import type { GenerationRequest, StreamEvent } from '@signalbox/core';
import { decodeOpenAIResponsesRequest } from '../request/decode-openai-responses-request';
import { encodeOpenAIResponsesRequest } from '../request/encode-openai-responses-request';
import { encodeOpenAIResponsesResponse } from '../response/encode-openai-responses-response';
import { createOpenAIResponsesStreamEncoder } from '../stream/encode-openai-responses-stream';
import { packCarriedReasoning, unpackCarriedReasoning } from './carried-reasoning';

const request: GenerationRequest = { model: 'm', system: [], messages: [], stream: false };
const context = { request, createdAt: 1_763_769_600 };
const thinking = { type: 'reasoning' as const, text: 'Let me think: 2 + 2.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxDfnVEPA' };

describe('Anthropic reasoning carried through a Responses client', () => {
  it('round-trips text, signature and redacted data, and leaves OpenAI blobs alone', () => {
    expect(unpackCarriedReasoning(packCarriedReasoning(thinking)!)).toEqual(thinking);
    const redacted = { type: 'reasoning' as const, text: '', redactedData: 'opaque==' };
    expect(unpackCarriedReasoning(packCarriedReasoning(redacted)!)).toEqual(redacted);
    expect(packCarriedReasoning({ text: 'unsigned' })).toBeUndefined();
    expect(unpackCarriedReasoning('gAAAAABopenai-encrypted')).toBeUndefined();
  });

  it('puts signed thinking in encrypted_content (JSON and stream) and takes it back from replayed input', () => {
    const body = encodeOpenAIResponsesResponse(
      { id: 'msg_up', model: 'claude', content: [thinking, { type: 'text', text: '4' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: undefined, cacheWriteTokens: undefined, cacheWrite1hTokens: undefined, reasoningTokens: undefined } },
      context,
    );
    const item = (body.output as Array<Record<string, unknown>>)[0]!;
    expect(item.type).toBe('reasoning');

    const encoder = createOpenAIResponsesStreamEncoder(context);
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'msg_up', model: 'claude' },
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-delta', id: '0', delta: thinking.text },
      { type: 'reasoning-end', id: '0', signature: thinking.signature },
    ];
    const done = events
      .flatMap(event => encoder.push(event))
      .map(message => JSON.parse(message.data))
      .find(data => data.type === 'response.output_item.done');
    expect(done.item.encrypted_content).toBe(item.encrypted_content);

    const replayed = decodeOpenAIResponsesRequest({
      model: 'm',
      input: [{ role: 'user', content: 'what is 2 + 2?' }, { ...item }, { role: 'assistant', content: '4' }, { role: 'user', content: 'and 3 + 3?' }],
    }).value;
    const assistant = replayed.messages.find(message => message.role === 'assistant');
    expect(assistant?.content[0]).toEqual(thinking);
    // Sent on to an OpenAI upstream, Anthropic's signed thinking is of no use and is dropped with a warning.
    const upstream = encodeOpenAIResponsesRequest(replayed, 'gpt-6');
    expect(JSON.stringify(upstream.value)).not.toContain(thinking.signature);
    expect(upstream.warnings.map(warning => warning.field)).toContain('messages.1.content.0');
  });
});
