import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec, GatewayError } from '@signalbox/core';
import { gatewayErrorOf } from '@signalbox/core/testing';
import { createProtocolRegistry } from './create-protocol-registry';

/**
 * The refusals of each built-in endpoint for the other built-in protocols' fields, as the registry
 * composes them from the three descriptors: where each field belongs and what the endpoint takes
 * instead, with no codec naming another.
 */
function refusalOn(codecs: readonly Codec[], codec: Codec, body: unknown, mountPath?: string): GatewayError {
  const registry = createProtocolRegistry(codecs);
  return gatewayErrorOf(() =>
    codec.decodeRequest(body, { foreignFields: registry.foreignFieldsOf(codec), ...(mountPath !== undefined && { mountPath }) }),
  );
}

const all = [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec];

/** `body` on the endpoint of `codec` is refused for `field`, naming `endpoints` and what the endpoint takes `instead`. */
function expectNamedRefusal(codec: Codec, body: Record<string, unknown>, field: string, endpoints: string, instead: string): void {
  const error = refusalOn(all, codec, body);
  expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', field]);
  expect(error.message).toContain(`\`${field}\` is a field of ${endpoints}, not of this endpoint (POST ${codec.descriptor.generationPath}): `);
  expect(error.message).toContain(instead);
}
const messagesBody = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };
const chatBody = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };
const responsesBody = { model: 'm', input: 'x' };

describe('the Messages endpoint, next to Responses and Chat Completions', () => {
  const refusal = (extra: Record<string, unknown>, body: Record<string, unknown> = messagesBody) => refusalOn(all, anthropicMessagesCodec, { ...body, ...extra });

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['n, a Chat Completions field', { n: 2 }, 'n', /^`n` is a field of POST \/v1\/chat\/completions, not of this endpoint \(POST \/v1\/messages\): Messages returns one answer per request\./],
    ['max_output_tokens, a Responses field', { max_output_tokens: 9 }, 'max_output_tokens', /POST \/v1\/responses.*`max_tokens`/],
    ['instructions next to messages', { instructions: 'Be brief.' }, 'instructions', /POST \/v1\/responses.*`system`/],
    ['input next to messages', { input: 'hi' }, 'input', /POST \/v1\/responses.*`messages`/],
    ['stop, a Chat Completions field', { stop: ['x'] }, 'stop', /POST \/v1\/chat\/completions.*`stop_sequences`/],
    ['response_format, a Chat Completions field', { response_format: { type: 'json_object' } }, 'response_format', /`output_config\.format`/],
    ['previous_response_id, a Responses field', { previous_response_id: 'resp_1' }, 'previous_response_id', /POST \/v1\/responses.*whole conversation in `messages`/],
  ])('refuses %s', (_name, extra, param, message) => {
    const error = refusal(extra);
    expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', param]);
    expect(error.message).toMatch(message);
  });

  it('refuses a Responses-shaped body, pointing to the Responses endpoint', () => {
    const error = refusalOn(all, anthropicMessagesCodec, { model: 'm', input: 'hi' });
    expect([error.code, error.param]).toEqual(['INVALID_REQUEST', 'input']);
    expect(error.message).toMatch(/messages.*max_tokens.*POST \/v1\/responses/);
  });
});

describe('the Responses endpoint, next to Messages and Chat Completions', () => {
  it.each([
    [{ model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 }, 'messages'],
    [{ model: 'm', system: 'Be terse.', max_tokens: 100, extra: 1 }, 'system'],
    [{ model: 'm', max_tokens: 100 }, 'max_tokens'],
  ])('refuses a Messages-shaped body before the unknown-parameter check (%#)', (body, param) => {
    const error = refusalOn(all, openAIResponsesCodec, body);
    expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', param]);
    expect(error.message).toContain('`input`');
    expect(error.message).toContain('`instructions`');
    expect(error.message).toContain('POST /v1/messages');
  });

  it.each([
    ['max_tokens', 'POST /v1/messages and POST /v1/chat/completions', '`max_output_tokens`'],
    ['messages', 'POST /v1/messages and POST /v1/chat/completions', '`input`'],
    ['system', 'POST /v1/messages', '`instructions`'],
    ['max_completion_tokens', 'POST /v1/chat/completions', '`max_output_tokens`'],
    ['stop', 'POST /v1/chat/completions', 'no stop parameter'],
    ['stop_sequences', 'POST /v1/messages', 'no stop parameter'],
    ['response_format', 'POST /v1/chat/completions', '`text.format`'],
    ['reasoning_effort', 'POST /v1/chat/completions', '`reasoning.effort`'],
    ['thinking', 'POST /v1/messages', '`reasoning`'],
    ['n', 'POST /v1/chat/completions', 'one answer per request'],
  ])('refuses %s next to `input`: a field of %s, naming what this endpoint takes instead', (field, endpoints, instead) => {
    expectNamedRefusal(openAIResponsesCodec, { ...responsesBody, [field]: 10 }, field, endpoints, instead);
  });

  it('says in full where `max_tokens` belongs and what Responses takes instead', () => {
    expect(refusalOn(all, openAIResponsesCodec, { ...responsesBody, max_tokens: 10 }).message).toBe(
      '`max_tokens` is a field of POST /v1/messages and POST /v1/chat/completions, not of this endpoint ' +
        '(POST /v1/responses): the output limit is `max_output_tokens`. ' +
        'Send the body to the endpoint it was written for, or rewrite it for this one.',
    );
  });
});

describe('the Chat Completions endpoint, next to Responses and Messages', () => {
  it.each([
    ['input', 'POST /v1/responses', '`messages`'],
    ['instructions', 'POST /v1/responses', '`system` or `developer` message'],
    ['max_output_tokens', 'POST /v1/responses', '`max_completion_tokens`'],
    ['previous_response_id', 'POST /v1/responses', 'whole conversation'],
    ['text', 'POST /v1/responses', '`response_format`'],
    ['system', 'POST /v1/messages', '`system` message'],
    ['stop_sequences', 'POST /v1/messages', '`stop`'],
  ])('refuses %s, a field of %s, naming what Chat takes instead', (field, endpoint, instead) => {
    expectNamedRefusal(openAIChatCodec, { ...chatBody, [field]: 'x' }, field, endpoint, instead);
  });

  it("takes the fields it shares with Messages, and OpenAI-compatible servers' `reasoning` and `thinking`", () => {
    const registry = createProtocolRegistry(all);
    const body = { ...chatBody, max_tokens: 5, reasoning: { effort: 'low' }, thinking: { type: 'enabled' } };
    const { value } = openAIChatCodec.decodeRequest(body, { foreignFields: registry.foreignFieldsOf(openAIChatCodec) });
    expect(value.maxOutputTokens).toBe(5);
    expect(value.providerOptions).toEqual({ 'openai-chat': { max_tokens: 5, unknown_fields: { reasoning: { effort: 'low' }, thinking: { type: 'enabled' } } } });
  });
});

describe('a gateway with fewer protocols', () => {
  it('names only the endpoints it serves: Messages next to Chat alone never points to Responses', () => {
    const error = refusalOn([anthropicMessagesCodec, openAIChatCodec], anthropicMessagesCodec, { ...messagesBody, max_completion_tokens: 5 });
    expect(error.message).toMatch(/^`max_completion_tokens` is a field of POST \/v1\/chat\/completions, not of this endpoint \(POST \/v1\/messages\): the output limit is `max_tokens`\./);
    const registry = createProtocolRegistry([anthropicMessagesCodec, openAIChatCodec]);
    const decoded = anthropicMessagesCodec.decodeRequest({ ...messagesBody, max_output_tokens: 5 }, { foreignFields: registry.foreignFieldsOf(anthropicMessagesCodec) });
    expect(decoded.value.providerOptions).toEqual({ 'anthropic-messages': { unknown_fields: { max_output_tokens: 5 } } });
  });

  it('refuses no field as foreign on a Messages-only gateway', () => {
    const registry = createProtocolRegistry([anthropicMessagesCodec]);
    expect(registry.foreignFieldsOf(anthropicMessagesCodec).fields.size).toBe(0);
  });
});

it('names the paths under the mount path the request came in on', () => {
  expect(refusalOn(all, anthropicMessagesCodec, { ...messagesBody, n: 2 }, '/llm').message).toMatch(
    /^`n` is a field of POST \/llm\/v1\/chat\/completions, not of this endpoint \(POST \/llm\/v1\/messages\)/,
  );
});
