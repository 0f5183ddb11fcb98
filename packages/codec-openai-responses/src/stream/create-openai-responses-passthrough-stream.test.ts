import { streamEndedEarly, type SSEMessage } from '@signalbox/core';
import { expectForwardedUnchangedAndRejected } from '@signalbox/sse/testing';
import { createOpenAIResponsesPassthroughStream } from './create-openai-responses-passthrough-stream';
import { createOpenAIResponsesStreamDecoder } from './decode-openai-responses-stream';

const created = {
  type: 'response.created',
  sequence_number: 0,
  response: { id: 'resp_1', object: 'response', status: 'in_progress', model: 'upstream-model', output: [] },
};

describe('createOpenAIResponsesPassthroughStream', () => {
  it("puts the client's model into the lifecycle events and forwards other events as they are", () => {
    const passthrough = createOpenAIResponsesPassthroughStream('client-model');
    const forwarded = passthrough.forward({ event: 'response.created', data: JSON.stringify(created) });
    expect(JSON.parse(forwarded.data)).toEqual({
      ...created,
      response: { ...created.response, model: 'client-model' },
    });
    const delta: SSEMessage = {
      event: 'response.output_text.delta',
      data: '{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"}',
    };
    expect(passthrough.forward(delta)).toBe(delta);
  });

  it('keeps every byte of a lifecycle event but the model, and gives a response without a string model the client’s', () => {
    const passthrough = createOpenAIResponsesPassthroughStream('client-model');
    const written =
      '{"type":"response.completed","sequence_number":9,"response":{"id":"resp_1","output":[{"type":"message","content":[{"type":"output_text","text":"\\"model\\": \\u00e9"}]}],"model":"upstream-model"}}';
    expect(passthrough.forward({ event: 'response.completed', data: written }).data).toBe(written.replace('"model":"upstream-model"', '"model":"client-model"'));
    const withoutModel = passthrough.forward({ event: 'response.created', data: '{"type":"response.created","response":{"id":"resp_1","model":7}}' });
    expect(JSON.parse(withoutModel.data)).toEqual({ type: 'response.created', response: { id: 'resp_1', model: 'client-model' } });
  });

  it('forwards an event that is not JSON unchanged, and the decoder reports it as UPSTREAM_FAILED', () => {
    const malformed: SSEMessage = {
      event: 'response.created',
      data: '{"type":"response.created","sequence_number":0,"response":{"model":',
    };
    expectForwardedUnchangedAndRejected(
      createOpenAIResponsesPassthroughStream('client-model'),
      createOpenAIResponsesStreamDecoder(),
      malformed,
    );
  });

  it('numbers its failure event after the last upstream sequence_number, even past a frame that is not JSON', () => {
    const passthrough = createOpenAIResponsesPassthroughStream('client-model');
    passthrough.forward({ event: 'response.created', data: JSON.stringify(created) });
    passthrough.forward({
      event: 'response.in_progress',
      data: '{"type":"response.in_progress","sequence_number":1,"response":{',
    });
    const [failure] = passthrough.fail(streamEndedEarly());
    expect(JSON.parse(failure!.data)).toMatchObject({
      type: 'error',
      sequence_number: 2,
      code: 'upstream_failed',
    });
  });
});
