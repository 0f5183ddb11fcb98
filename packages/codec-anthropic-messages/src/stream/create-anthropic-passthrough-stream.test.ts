import type { SSEMessage } from '@signalbox/core';
import { expectForwardedUnchangedAndRejected } from '@signalbox/sse/testing';
import { createAnthropicPassthroughStream } from './create-anthropic-passthrough-stream';
import { createAnthropicStreamDecoder } from './decode-anthropic-stream';

const messageStart = {
  type: 'message_start',
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'upstream-model', content: [] },
};

describe('createAnthropicPassthroughStream', () => {
  it("puts the client's model into message_start and forwards other frames as they are", () => {
    const passthrough = createAnthropicPassthroughStream('client-model');
    const start = passthrough.forward({ event: 'message_start', data: JSON.stringify(messageStart) });
    expect(JSON.parse(start.data)).toEqual({
      ...messageStart,
      message: { ...messageStart.message, model: 'client-model' },
    });
    const ping: SSEMessage = { event: 'ping', data: '{"type": "ping"}' };
    expect(passthrough.forward(ping)).toBe(ping);
  });

  it('keeps every byte of message_start but the model, and gives a message without a string model the client’s', () => {
    const passthrough = createAnthropicPassthroughStream('client "quoted" model');
    const written = '{"type": "message_start", "message": {"id": "msg_1", "model": "upstream-model", "content": []}}';
    expect(passthrough.forward({ event: 'message_start', data: written }).data).toBe(
      '{"type": "message_start", "message": {"id": "msg_1", "model": "client \\"quoted\\" model", "content": []}}',
    );
    const withoutModel = passthrough.forward({ event: 'message_start', data: '{"type":"message_start","message":{"id":"msg_1"}}' });
    expect(JSON.parse(withoutModel.data)).toEqual({ type: 'message_start', message: { id: 'msg_1', model: 'client "quoted" model' } });
  });

  it.each<[string, SSEMessage]>([
    ['a message_start', { event: 'message_start', data: '{"type":"message_start","message":{"model":' }],
    ['an event name no codec knows', { event: 'proxy_status', data: '<html><body><h1>502 Bad Gateway</h1></body></html>' }],
  ])('forwards %s that is not JSON unchanged, and the decoder reports it as UPSTREAM_FAILED', (_name, malformed) => {
    expectForwardedUnchangedAndRejected(
      createAnthropicPassthroughStream('client-model'),
      createAnthropicStreamDecoder(),
      malformed,
    );
  });
});
