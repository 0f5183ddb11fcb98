import { anthropicMessagesCodec } from './anthropic-messages-codec';
import { testContext } from './testing/stream-test-helpers';

describe('anthropicMessagesCodec', () => {
  it('speaks anthropic-messages and translates a request end to end', () => {
    expect(anthropicMessagesCodec.protocol).toBe('anthropic-messages');
    const { value } = anthropicMessagesCodec.decodeRequest({
      model: 'client',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(anthropicMessagesCodec.encodeRequest(value, 'upstream').value).toEqual({
      model: 'upstream',
      max_tokens: 50,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('sends the fields it does not know back to a Messages upstream as sent, after its own fields', () => {
    const { value } = anthropicMessagesCodec.decodeRequest({
      model: 'client',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
      top_k: 5,
      brand_new_field: { a: 1 },
      model_hint: 'x',
    });
    expect(value.providerOptions).toEqual({
      'anthropic-messages': { top_k: 5, unknown_fields: { brand_new_field: { a: 1 }, model_hint: 'x' } },
    });
    expect(anthropicMessagesCodec.encodeRequest(value, 'upstream').value).toEqual({
      model: 'upstream',
      max_tokens: 50,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      top_k: 5,
      brand_new_field: { a: 1 },
      model_hint: 'x',
    });
  });

  it('warns about each Messages-only and unknown field an upstream of another protocol drops', () => {
    const { value } = anthropicMessagesCodec.decodeRequest({
      model: 'client',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
      top_k: 5,
      cache_control: { type: 'ephemeral' },
      brand_new_field: 1,
    });
    const warnings = anthropicMessagesCodec.describeDroppedOptions!(value.providerOptions!['anthropic-messages']!);
    expect(warnings.map(warning => `${warning.field} (${warning.type})`)).toEqual(['top_k (unsupported-field)', 'brand_new_field (unknown-field)']);
  });

  it('creates independent stream encoders and decoders', () => {
    const first = anthropicMessagesCodec.createStreamEncoder(testContext());
    const second = anthropicMessagesCodec.createStreamEncoder(testContext());
    expect(first.push({ type: 'response-start', id: 'r', model: 'm' }).map(message => message.event)).toEqual(
      ['message_start', 'ping'],
    );
    expect(second.end().map(message => message.event)).toEqual(['error']);
    expect(first.push({ type: 'text-start', id: 't' }).map(message => message.event)).toEqual([
      'content_block_start',
    ]);
    const decoder = anthropicMessagesCodec.createStreamDecoder();
    expect(decoder.end()).toHaveLength(1);
    expect(
      anthropicMessagesCodec.createStreamDecoder().push({ event: 'ping', data: '{"type":"ping"}' }),
    ).toEqual([]);
  });
});
