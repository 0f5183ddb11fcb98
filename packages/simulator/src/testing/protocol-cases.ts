/** Test helper: one protocol as a test sees it — where to POST, how to ask, how a token and the end look. */
export type ProtocolCase = {
  name: 'responses' | 'messages' | 'chat';
  path: string;
  headers: Record<string, string>;
  body(text: string, stream: boolean): Record<string, unknown>;
  /** True for a parsed stream payload that carries one generated text token. */
  isTextDelta(payload: Record<string, unknown>): boolean;
  /** True for a parsed stream payload that ends the stream normally. */
  isTerminal(payload: Record<string, unknown>): boolean;
};

/** Test helper: the three protocols, for tests that must hold in each. */
export const PROTOCOL_CASES: readonly ProtocolCase[] = [
  {
    name: 'responses',
    path: '/v1/responses',
    headers: {},
    body: (text, stream) => ({ model: 'sim-1', input: text, stream }),
    isTextDelta: payload => payload.type === 'response.output_text.delta',
    isTerminal: payload => payload.type === 'response.completed' || payload.type === 'response.incomplete',
  },
  {
    name: 'messages',
    path: '/v1/messages',
    headers: { 'anthropic-version': '2023-06-01' },
    body: (text, stream) => ({ model: 'sim-1', max_tokens: 1024, messages: [{ role: 'user', content: text }], stream }),
    isTextDelta: payload => payload.type === 'content_block_delta',
    isTerminal: payload => payload.type === 'message_delta' || payload.type === 'message_stop',
  },
  {
    name: 'chat',
    path: '/v1/chat/completions',
    headers: {},
    body: (text, stream) => ({ model: 'sim-1', messages: [{ role: 'user', content: text }], stream }),
    isTextDelta: payload => {
      const choices = payload.choices as Array<{ delta?: { content?: string } }> | undefined;
      return typeof choices?.[0]?.delta?.content === 'string' && choices[0].delta.content !== '';
    },
    isTerminal: payload => {
      const choices = payload.choices as Array<{ finish_reason?: string | null }> | undefined;
      return typeof choices?.[0]?.finish_reason === 'string';
    },
  },
];
