import type { SSEMessage } from '@signalbox/core';
import { expectForwardedUnchangedAndRejected } from '@signalbox/sse/testing';
import { createOpenAIChatPassthroughStream } from './create-openai-chat-passthrough-stream';
import { createOpenAIChatStreamDecoder } from './decode-openai-chat-stream';

const chunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'upstream-model',
  choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }],
};

describe('createOpenAIChatPassthroughStream', () => {
  it("puts the client's model into every chunk and forwards [DONE] as it is", () => {
    const passthrough = createOpenAIChatPassthroughStream('client-model');
    expect(JSON.parse(passthrough.forward({ data: JSON.stringify(chunk) }).data)).toEqual({
      ...chunk,
      model: 'client-model',
    });
    const done: SSEMessage = { data: '[DONE]' };
    expect(passthrough.forward(done)).toBe(done);
  });

  it('forwards a chunk that is not JSON unchanged, and the decoder reports it as UPSTREAM_FAILED', () => {
    const malformed: SSEMessage = { data: '{"id":"chatcmpl-1","model":"upstream-model","choices":[' };
    expectForwardedUnchangedAndRejected(
      createOpenAIChatPassthroughStream('client-model'),
      createOpenAIChatStreamDecoder(),
      malformed,
    );
  });
});
