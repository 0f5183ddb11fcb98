/** One surface of the gateway as the fuzzer drives it. */
export type FuzzEndpoint = {
  name: 'responses' | 'messages' | 'chat' | 'gemini' | 'models' | 'gemini-models';
  method: 'POST' | 'GET';
  path: string;
  /** Where a stream is asked for, for a protocol that asks by path (Gemini) rather than with `stream: true`. */
  streamPath?: string;
  /** Header lines of a correctly authenticated caller of this endpoint. */
  authHeaders(key: string): Array<[string, string]>;
  /** Bodies the gateway accepts (minimal and feature-rich); empty for `GET /v1/models`. */
  seeds: readonly Record<string, unknown>[];
};

const MODEL = 'signalbox-sim';
const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

const responsesSeeds = [
  { model: MODEL, input: 'hi' },
  {
    model: 'sim-via-messages',
    instructions: 'Answer briefly.',
    input: [
      { role: 'developer', content: 'Answer in English.' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Weather in Oslo?' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
        ],
      },
      { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_9', output: '{"temp_c":3}' },
      { role: 'user', content: 'And tomorrow?' },
    ],
    tools: [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather.',
        parameters: WEATHER_SCHEMA,
        strict: false,
      },
    ],
    tool_choice: 'auto',
    max_output_tokens: 64,
    temperature: 0.2,
    metadata: { ticket: 'T-1' },
  },
];

const messagesSeeds = [
  { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
  {
    model: 'sim-via-chat',
    max_tokens: 64,
    system: [{ type: 'text', text: 'Be brief.' }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_01Oslo', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01Oslo', content: '12 C, rain' },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ],
    tools: [{ name: 'get_weather', description: 'Weather.', input_schema: WEATHER_SCHEMA }],
    tool_choice: { type: 'auto' },
    temperature: 1,
    stop_sequences: ['END'],
    metadata: { user_id: 'user-1' },
  },
];

const chatSeeds = [
  { model: MODEL, messages: [{ role: 'user', content: 'hi' }] },
  {
    model: 'sim-via-messages',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '4 C, rain' },
      { role: 'user', content: 'Thanks' },
    ],
    max_tokens: 64,
    temperature: 0.2,
    stop: ['END'],
    stream_options: { include_usage: true },
    tools: [
      {
        type: 'function',
        function: { name: 'get_weather', description: 'Weather.', parameters: WEATHER_SCHEMA },
      },
    ],
    tool_choice: 'auto',
    seed: 42,
  },
];

const geminiSeeds = [
  { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  {
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [
      { role: 'user', parts: [{ text: 'Weather in Oslo?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
      { role: 'model', parts: [{ functionCall: { id: 'call_7', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'c2lnbmF0dXJl' }] },
      { role: 'user', parts: [{ functionResponse: { id: 'call_7', name: 'get_weather', response: { output: '5 C, snow' } } }, { text: 'And tomorrow?' }] },
    ],
    tools: [
      { functionDeclarations: [{ name: 'get_weather', description: 'Weather.', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] },
    ],
    toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    generationConfig: { maxOutputTokens: 64, temperature: 0.2, topK: 20, stopSequences: ['END'], thinkingConfig: { thinkingBudget: 128, includeThoughts: true } },
  },
];

const bearer = (key: string): Array<[string, string]> => [['authorization', `Bearer ${key}`]];
const googleKey = (key: string): Array<[string, string]> => [['x-goog-api-key', key]];

/** The four generation endpoints and the model lists, with their correct authentication. */
export const FUZZ_ENDPOINTS: readonly FuzzEndpoint[] = [
  {
    name: 'responses',
    method: 'POST',
    path: '/v1/responses',

    authHeaders: bearer,
    seeds: responsesSeeds,
  },
  {
    name: 'messages',
    method: 'POST',
    path: '/v1/messages',

    authHeaders: key => [
      ['x-api-key', key],
      ['anthropic-version', '2023-06-01'],
    ],
    seeds: messagesSeeds,
  },
  {
    name: 'chat',
    method: 'POST',
    path: '/v1/chat/completions',

    authHeaders: bearer,
    seeds: chatSeeds,
  },
  {
    name: 'gemini',
    method: 'POST',
    path: '/v1beta/models/sim-via-messages:generateContent',
    streamPath: '/v1beta/models/sim-via-messages:streamGenerateContent?alt=sse',
    authHeaders: googleKey,
    seeds: geminiSeeds,
  },
  { name: 'models', method: 'GET', path: '/v1/models', authHeaders: bearer, seeds: [] },
  { name: 'gemini-models', method: 'GET', path: '/v1beta/models', authHeaders: googleKey, seeds: [] },
];

/** The endpoints that take a generation body. */
export const GENERATION_ENDPOINTS = FUZZ_ENDPOINTS.filter(endpoint => endpoint.seeds.length > 0);

/** Endpoint names, for arbitraries (a counterexample then shows a name, not the whole definition). */
export const ENDPOINT_NAMES = FUZZ_ENDPOINTS.map(endpoint => endpoint.name);
/** Names of the generation endpoints only. */
export const GENERATION_ENDPOINT_NAMES = GENERATION_ENDPOINTS.map(endpoint => endpoint.name);

/** The endpoint with this name. */
export function endpointNamed(name: FuzzEndpoint['name']): FuzzEndpoint {
  return FUZZ_ENDPOINTS.find(endpoint => endpoint.name === name)!;
}
