import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError } from '@signalbox/core';
import { decodeOpenAIChatResponse } from './decode-openai-chat-response';

// Wire-shaped synthetic upstream bodies; provenance in __fixtures__/README.md.
function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(__dirname, '../__fixtures__', name), 'utf8'));
}

describe('decodeOpenAIChatResponse', () => {
  it('reads a text answer with cached-token usage', () => {
    expect(decodeOpenAIChatResponse(fixture('text-basic.1.response.json'))).toEqual({
      id: 'chatcmpl-Tb1cD4eF7gH0jK3lM6nP9qR2',
      model: 'gpt-6-2026-10-01',
      content: [{ type: 'text', text: 'Grüße aus Oslo 👋!' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: 1312,
        outputTokens: 9,
        cacheReadTokens: 1152,
        cacheWriteTokens: undefined,
        reasoningTokens: 0,
      },
    });
  });

  it('reports tool-calls when tool calls came with finish_reason "stop", as a forced tool_choice answers', () => {
    const response = decodeOpenAIChatResponse(fixture('tool-call-forced-stop.1.response.json'));
    expect(response.content).toEqual([
      {
        type: 'tool-call',
        callId: 'call_Zx4Cv7Bn0Ml3Kj6Hg9Fd2Sa5',
        name: 'lookup_order',
        arguments: '{"order_id":"A-1042"}',
      },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'stop' });
  });

  it('reads reasoning_content, treats `tool_calls: []` as absent and leaves unreported counts undefined', () => {
    const response = decodeOpenAIChatResponse(fixture('reasoning-compat.1.response.json'));
    expect(response.content).toEqual([
      { type: 'reasoning', text: 'The user asks 2+2. That is 4.' },
      { type: 'text', text: 'It is 4.' },
    ]);
    expect(response.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
    expect(response.usage).toEqual({
      inputTokens: 17,
      outputTokens: 21,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
      reasoningTokens: undefined,
    });
  });

  it('keeps a refusal and length / content_filter even with tool calls', () => {
    const body = {
      choices: [
        {
          message: {
            content: null,
            refusal: 'No.',
            tool_calls: [{ id: 'call_1', function: { name: 'f', arguments: '{"a"' } }],
          },
          finish_reason: 'length',
        },
      ],
    };
    const response = decodeOpenAIChatResponse(body);
    expect(response.content.map(part => part.type)).toEqual(['refusal', 'tool-call']);
    expect(response.finishReason).toEqual({ unified: 'length', raw: 'length' });
    expect(
      decodeOpenAIChatResponse({ choices: [{ message: {}, finish_reason: 'content_filter' }] }).finishReason
        .unified,
    ).toBe('content-filter');
    expect(
      decodeOpenAIChatResponse({ choices: [{ message: {}, finish_reason: 'eos' }] }).finishReason,
    ).toEqual({ unified: 'other', raw: 'eos' });
  });

  it.each([
    ['an empty object', {}],
    ['no choices', { id: 'x', choices: [] }],
    ['a choice without message', { choices: [{ finish_reason: 'stop' }] }],
    ['a string', 'Bad gateway'],
    ['null', null],
  ])('refuses %s as a malformed upstream body', (_label, body) => {
    let caught: unknown;
    try {
      decodeOpenAIChatResponse(body);
    } catch (error) {
      caught = error;
    }
    expect(GatewayError.isInstance(caught) && caught.code).toBe('UPSTREAM_FAILED');
    expect((caught as Error).message).toBe('The upstream answered with a malformed Chat Completions body.');
  });
});
