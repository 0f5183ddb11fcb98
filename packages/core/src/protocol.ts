/**
 * A wire protocol's identifier, as its codec declares it (`codec.protocol`). The built-in
 * codecs speak these; a host may add a codec of its own under another name.
 */
export type Protocol = BuiltInProtocol | (string & {});

/** The protocols of the built-in codecs. */
export type BuiltInProtocol = 'openai-responses' | 'anthropic-messages' | 'openai-chat' | 'google-gemini';

/** The protocols of the built-in codecs, in their usual order. */
export const PROTOCOLS: readonly BuiltInProtocol[] = ['openai-responses', 'anthropic-messages', 'openai-chat', 'google-gemini'];
