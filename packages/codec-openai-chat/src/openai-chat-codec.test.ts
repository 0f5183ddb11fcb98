import { createUpstreamError, GatewayError } from '@signalbox/core';
import { openAIChatCodec } from './openai-chat-codec';

describe('openAIChatCodec', () => {
  it('speaks openai-chat', () => {
    expect(openAIChatCodec.protocol).toBe('openai-chat');
  });

  it('sends the fields it does not know back to a Chat upstream as sent, never over a field it set itself', () => {
    const { value } = openAIChatCodec.decodeRequest({
      model: 'client',
      messages: [{ role: 'user', content: 'Hi' }],
      seed: 7,
      top_k: 20,
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(value.providerOptions).toEqual({
      'openai-chat': { seed: 7, unknown_fields: { top_k: 20, chat_template_kwargs: { enable_thinking: false } } },
    });
    expect(openAIChatCodec.encodeRequest(value, 'upstream').value).toEqual({
      model: 'upstream',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: false,
      seed: 7,
      top_k: 20,
      chat_template_kwargs: { enable_thinking: false },
    });
  });

  it('warns about each Chat-only and unknown field an upstream of another protocol drops', () => {
    const { value } = openAIChatCodec.decodeRequest({ model: 'client', messages: [{ role: 'user', content: 'Hi' }], seed: 7, brand_new_field: 1 });
    const warnings = openAIChatCodec.describeDroppedOptions!(value.providerOptions!['openai-chat']!);
    expect(warnings.map(warning => `${warning.field} (${warning.type})`)).toEqual(['seed (unsupported-field)', 'brand_new_field (unknown-field)']);
  });

  it('renders errors in the OpenAI envelope with the service code and request id, never the cause', () => {
    const error = new GatewayError({
      code: 'UNSUPPORTED_PARAMETER',
      message: "The 'audio' parameter is not supported by this gateway.",
      param: 'audio',
      cause: new Error('secret internals'),
    });
    const encoded = openAIChatCodec.encodeError(error, 'req_123');
    expect(encoded).toEqual({
      status: 400,
      body: {
        error: {
          message: "The 'audio' parameter is not supported by this gateway.",
          type: 'invalid_request_error',
          param: 'audio',
          code: 'unsupported_parameter',
        },
        code: 'UNSUPPORTED_PARAMETER',
        request_id: 'req_123',
      },
    });
    expect(JSON.stringify(encoded)).not.toContain('secret internals');
  });

  it('keeps the upstream’s own error code when relaying an upstream failure', () => {
    const error = createUpstreamError({
      status: 400,
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
      message: 'Too long',
    });
    expect(openAIChatCodec.encodeError(error, 'req_1').body.error).toEqual({
      message: 'Upstream 400 error: Too long',
      type: 'invalid_request_error',
      param: null,
      code: 'context_length_exceeded',
    });
  });

  it('reads upstream error bodies of any shape', () => {
    const envelope = {
      error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    };
    expect(openAIChatCodec.decodeError(envelope)).toEqual({
      message: 'Rate limit reached',
      type: 'requests',
      code: 'rate_limit_exceeded',
    });
    expect(openAIChatCodec.decodeError('<html>502 Bad Gateway</html>')).toEqual({
      message: '<html>502 Bad Gateway</html>',
    });
    expect(openAIChatCodec.decodeError(undefined)).toEqual({});
  });

  it('decodes what it encodes: error envelope round trip', () => {
    const error = new GatewayError({ code: 'RATE_LIMITED', message: 'Slow down.' });
    expect(openAIChatCodec.decodeError(openAIChatCodec.encodeError(error, 'req_9').body)).toEqual({
      message: 'Slow down.',
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
    });
  });
});
