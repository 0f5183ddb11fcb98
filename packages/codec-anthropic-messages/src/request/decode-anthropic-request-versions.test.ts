import { GatewayError } from '@signalbox/core';
import { decodeAnthropicRequest } from './decode-anthropic-request';

const body = { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };

describe('decodeAnthropicRequest and the client API version', () => {
  it('accepts temperature, top_p and top_k on 2023-06-01 (and when no version is given)', () => {
    expect(decodeAnthropicRequest({ ...body, temperature: 0.3 }, { apiVersion: '2023-06-01' }).value.temperature).toBe(0.3);
    expect(decodeAnthropicRequest({ ...body, top_p: 0.9 }).value.topP).toBe(0.9);
  });

  it.each(['temperature', 'top_p', 'top_k'])('refuses %s on 2026-10-21 with a 400 naming it', field => {
    let thrown: unknown;
    try {
      decodeAnthropicRequest({ ...body, [field]: field === 'top_k' ? 5 : 0.5 }, { apiVersion: '2026-10-21' });
    } catch (error) {
      thrown = error;
    }
    expect(GatewayError.isInstance(thrown) && [thrown.status, thrown.param]).toEqual([400, field]);
  });
});
