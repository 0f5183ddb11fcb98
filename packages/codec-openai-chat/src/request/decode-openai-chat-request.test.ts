import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeForeignFields, GatewayError, type DecodeOptions } from '@signalbox/core';
import { openAIChatDescriptor } from '../openai-chat-descriptor';
import { decodeOpenAIChatRequest } from './decode-openai-chat-request';

// Wire-shaped synthetic client body; provenance in __fixtures__/README.md.
const everything = JSON.parse(
  readFileSync(join(__dirname, '../__fixtures__/everything.1.request.json'), 'utf8'),
);

const minimal = { model: 'gpt-6', messages: [{ role: 'user', content: 'Hi' }] };

function refusal(body: unknown, options?: DecodeOptions): {
  code: string;
  param: string | undefined;
  message: string;
  status: number;
} {
  try {
    decodeOpenAIChatRequest(body, options);
  } catch (error) {
    if (!GatewayError.isInstance(error)) throw error;
    return { code: error.code, param: error.param, message: error.message, status: error.status };
  }
  throw new Error('expected the body to be refused');
}

describe('decodeOpenAIChatRequest', () => {
  it('decodes a minimal body, setting only what the client sent', () => {
    expect(decodeOpenAIChatRequest(minimal)).toEqual({
      value: {
        model: 'gpt-6',
        system: [],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        stream: false,
      },
      warnings: [],
    });
  });

  it('decodes every supported field of a full body', () => {
    const { value, warnings } = decodeOpenAIChatRequest(everything);
    expect(warnings).toEqual([]);
    expect(value).toMatchSnapshot();
    // The leading developer + system run becomes request.system; a later system message stays in place.
    expect(value.system).toEqual([
      { type: 'text', text: 'You are terse.' },
      { type: 'text', text: 'Answer in English.' },
    ]);
    expect(value.messages.map(message => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'system',
      'assistant',
      'user',
    ]);
    expect(value.messages[0]?.content).toEqual([
      { type: 'text', text: 'What is in this image and this PDF?' },
      {
        type: 'image',
        source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        detail: 'low',
      },
      { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
      {
        type: 'file',
        source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQ=' },
        filename: 'report.pdf',
      },
    ]);
    // Consecutive tool messages are one IR tool message, results in order.
    expect(value.messages[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          callId: 'call_h3JkR8sT2vWx9yZa1bCd4eFg',
          content: [{ type: 'text', text: '4°C, rain' }],
        },
        {
          type: 'tool-result',
          callId: 'call_Q7wErT5yUi3oPa8sDf2gHj6k',
          content: [
            { type: 'text', text: '6°C' },
            { type: 'text', text: 'cloudy' },
          ],
        },
      ],
    });
    expect(value).toMatchObject({
      maxOutputTokens: 512,
      temperature: 0.2,
      topP: 0.9,
      stopSequences: ['\n\nUser:'],
      stream: true,
      toolChoice: { type: 'tool', name: 'get_weather' },
      parallelToolCalls: true,
      reasoning: { effort: 'low' },
      responseFormat: { type: 'json-schema', name: 'answer', schema: { type: 'object' }, strict: true },
      user: 'user-7f3e9a',
      metadata: { team: 'qa' },
      promptCacheKey: 'conv-1',
    });
    expect(value.providerOptions).toEqual({
      'openai-chat': {
        n: 1,
        seed: 42,
        presence_penalty: 0.5,
        logit_bias: { '50256': -100 },
        service_tier: 'auto',
        verbosity: 'low',
        stream_options: { include_usage: true },
        max_tokens: 512,
      },
    });
  });

  it('remembers max_tokens only when the client used that name', () => {
    const { value } = decodeOpenAIChatRequest({ ...minimal, max_completion_tokens: 64 });
    expect(value.maxOutputTokens).toBe(64);
    expect(value.providerOptions).toBeUndefined();
  });

  it('reads a single stop string, a function tool without parameters, and null as "not set"', () => {
    const { value } = decodeOpenAIChatRequest({
      ...minimal,
      stop: 'END',
      temperature: null,
      max_tokens: null,
      reasoning_effort: null,
      tools: [{ type: 'function', function: { name: 'now' } }],
      tool_choice: 'required',
      response_format: { type: 'json_object' },
    });
    expect(value).toEqual({
      model: 'gpt-6',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: false,
      stopSequences: ['END'],
      tools: [{ name: 'now', inputSchema: { type: 'object', properties: {} } }],
      toolChoice: { type: 'required' },
      responseFormat: { type: 'json-object' },
    });
  });

  it('decodes assistant history: text parts, refusal and tool calls; drops empty text', () => {
    const { value } = decodeOpenAIChatRequest({
      model: 'm',
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'A' },
            { type: 'refusal', refusal: 'No.' },
          ],
        },
        { role: 'assistant', content: '', refusal: 'Still no.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
      ],
    });
    expect(value.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'A' },
          { type: 'refusal', text: 'No.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'refusal', text: 'Still no.' }] },
      { role: 'assistant', content: [{ type: 'tool-call', callId: 'call_1', name: 'f', arguments: '{}' }] },
    ]);
  });

  it('warns when a participant name is dropped', () => {
    const { warnings } = decodeOpenAIChatRequest({
      model: 'm',
      messages: [{ role: 'user', content: 'Hi', name: 'ada' }],
    });
    expect(warnings).toEqual([
      { type: 'unsupported-field', field: 'messages.0.name', details: 'Participant names are not carried.' },
    ]);
  });

  it('keeps top-level fields it does not know as sent, apart from the known ones, without a warning', () => {
    const { value, warnings } = decodeOpenAIChatRequest({ ...minimal, foo: 1, seed: 3, repetition_penalty: 1.1 });
    expect(value.providerOptions).toEqual({ 'openai-chat': { seed: 3, unknown_fields: { foo: 1, repetition_penalty: 1.1 } } });
    expect(warnings).toEqual([]);
  });

  it('still validates the known fields it needs next to unknown ones', () => {
    expect(refusal({ ...minimal, foo: 1, max_completion_tokens: 0 })).toMatchObject({ status: 400, code: 'INVALID_REQUEST', param: 'max_completion_tokens' });
  });

  describe("fields of the gateway's other endpoints", () => {
    // A gateway that also serves a made-up protocol, composed as its protocol registry composes it.
    const [foreignFields] = composeForeignFields([
      openAIChatDescriptor,
      {
        generationPath: '/v1/other',
        signatureFields: { prompt: 'the conversation', system_text: 'system text', odd_knob: 'something new', seed: 'a seed', thinking: 'reasoning' },
      },
    ]);
    const options: DecodeOptions = { foreignFields: foreignFields!, mountPath: '/llm' };

    it.each([
      ['prompt', 'the conversation goes in `messages`'],
      ['system_text', 'system text goes in a `system` message'],
    ])('refuses %s, naming the endpoint that takes it and what Chat takes instead', (field, instead) => {
      const error = refusal({ ...minimal, [field]: 'x' }, options);
      expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', field]);
      expect(error.message).toBe(
        `\`${field}\` is a field of POST /llm/v1/other, not of this endpoint (POST /llm/v1/chat/completions): ${instead}. ` +
          'Send the body to the endpoint it was written for, or rewrite it for this one.',
      );
    });

    it('names only where a field belongs when Chat has no word for what it carries', () => {
      expect(refusal({ ...minimal, odd_knob: 1 }, options).message).toMatch(/^`odd_knob` is a field of POST \/llm\/v1\/other, not of this endpoint \(POST \/llm\/v1\/chat\/completions\)\. Send/);
    });

    it("keeps its own fields and compatible servers' extensions (`thinking`) as its own, whoever else takes them", () => {
      const { value } = decodeOpenAIChatRequest({ ...minimal, seed: 3, thinking: { type: 'enabled' } }, options);
      expect(value.providerOptions).toEqual({ 'openai-chat': { seed: 3, unknown_fields: { thinking: { type: 'enabled' } } } });
    });

    it('refuses nothing without the options', () => {
      expect(decodeOpenAIChatRequest({ ...minimal, prompt: 'x' }).value.providerOptions).toEqual({ 'openai-chat': { unknown_fields: { prompt: 'x' } } });
    });
  });

  it.each([
    ['audio', { audio: { format: 'wav', voice: 'alloy' } }],
    ['modalities', { modalities: ['text', 'audio'] }],
    ['prediction', { prediction: { type: 'content', content: 'x' } }],
    ['web_search_options', { web_search_options: {} }],
    ['functions', { functions: [{ name: 'f' }] }],
    ['function_call', { function_call: 'auto' }],
    ['n', { n: 2 }],
    [
      'tools.1',
      {
        tools: [
          { type: 'function', function: { name: 'f' } },
          { type: 'custom', custom: { name: 'c' } },
        ],
      },
    ],
    ['tool_choice', { tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } } }],
    ['tool_choice', { tool_choice: { type: 'custom', custom: { name: 'c' } } }],
  ])('refuses %s with UNSUPPORTED_PARAMETER', (param, extra) => {
    expect(refusal({ ...minimal, ...extra })).toMatchObject({
      code: 'UNSUPPORTED_PARAMETER',
      param,
      status: 400,
    });
  });

  it.each([
    ['messages.1.role', { role: 'function', name: 'f', content: 'x' }],
    [
      'messages.1.content.1',
      {
        role: 'user',
        content: [
          { type: 'text', text: 'x' },
          { type: 'input_audio', input_audio: { data: 'AAA=', format: 'wav' } },
        ],
      },
    ],
    [
      'messages.1.content.0.file.file_id',
      { role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] },
    ],
    [
      'messages.1.tool_calls.0',
      { role: 'assistant', tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'x', input: '' } }] },
    ],
    [
      'messages.1.function_call',
      { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } },
    ],
    ['messages.1.audio', { role: 'assistant', content: null, audio: { id: 'audio_1' } }],
  ])('refuses %s with UNSUPPORTED_PARAMETER', (param, message) => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'Hi' }, message] };
    expect(refusal(body)).toMatchObject({ code: 'UNSUPPORTED_PARAMETER', param });
  });

  it('accepts modalities ["text"] and null refused fields, which ask for nothing the gateway lacks', () => {
    expect(() => decodeOpenAIChatRequest({ ...minimal, modalities: ['text'], audio: null })).not.toThrow();
  });

  it.each([
    ['temperature', { temperature: 3 }],
    ['top_p', { top_p: 1.5 }],
    ['stop', { stop: ['a', 'b', 'c', 'd', 'e'] }],
    ['max_completion_tokens', { max_completion_tokens: 0 }],
    ['messages.0.content', { messages: [{ role: 'user', content: 42 }] }],
    ['messages.0.role', { messages: [{ role: 'robot', content: 'x' }] }],
    ['messages.0.tool_call_id', { messages: [{ role: 'tool', content: 'x' }] }],
    ['messages', { messages: [] }],
    ['model', { model: undefined }],
    [
      'messages.0.content.0.file.file_data',
      { messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'JVBERi0=' } }] }] },
    ],
  ])('refuses a malformed %s with INVALID_REQUEST naming the path', (param, extra) => {
    expect(refusal({ ...minimal, ...extra })).toMatchObject({ code: 'INVALID_REQUEST', param, status: 400 });
  });

  it('refuses a body that is not a JSON object', () => {
    expect(refusal('hello')).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'Invalid request: The body must be a JSON object.',
    });
    expect(refusal([minimal])).toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
