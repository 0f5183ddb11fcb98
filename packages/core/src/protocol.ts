/** The wire protocols the gateway speaks, on both sides. */
export type Protocol = 'openai-responses' | 'anthropic-messages' | 'openai-chat';

export const PROTOCOLS: readonly Protocol[] = ['openai-responses', 'anthropic-messages', 'openai-chat'];
