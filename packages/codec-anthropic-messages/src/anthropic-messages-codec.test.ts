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
