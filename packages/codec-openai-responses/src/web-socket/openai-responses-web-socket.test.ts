import { gatewayErrorOf } from '@signalbox/core/testing';
import { openAIResponsesWebSocket } from './openai-responses-web-socket';

const refusalOf = (frame: unknown) => gatewayErrorOf(() => openAIResponsesWebSocket.readClientFrame(JSON.stringify(frame)));

describe('openAIResponsesWebSocket.readClientFrame', () => {
  it('reads a response.create frame as a streamed body and response.processed as an acknowledgement', () => {
    expect(openAIResponsesWebSocket.readClientFrame(JSON.stringify({ type: 'response.create', model: 'm', input: 'hi', generate: false }))).toEqual({
      kind: 'create',
      body: { model: 'm', input: 'hi', stream: true },
      generate: false,
    });
    expect(openAIResponsesWebSocket.readClientFrame(JSON.stringify({ type: 'response.processed' }))).toEqual({ kind: 'acknowledgement' });
  });

  it('quotes an unknown event type that is a type name', () => {
    const error = refusalOf({ type: 'response.cancel' });
    expect([error.code, error.param, error.message]).toEqual([
      'INVALID_REQUEST',
      'type',
      `Unknown event type 'response.cancel': send "response.create" (or "response.processed").`,
    ]);
  });

  it.each([
    ['text', 'Summarise the attached medical records for me'],
    ['an array', ['Summarise the attached medical records for me']],
  ])('describes an event type that is %s, without repeating it', (_label, type) => {
    expect(refusalOf({ type }).message).toBe(`Unknown event type (not a type name): send "response.create" (or "response.processed").`);
  });

  it('says a frame without a type has none', () => {
    expect(refusalOf({ model: 'm' }).message).toBe(`The frame has no event type: send "response.create" (or "response.processed").`);
  });
});
