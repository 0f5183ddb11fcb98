export { parseSSEText } from './parse-sse-text';
export type { StreamOutcome, StreamVerdict } from './stream-verdict';
export type { ChatStreamOptions } from './chat-stream-state';
export { validateChatStream } from './validate-chat-stream';
export { validateMessagesStream } from './validate-messages-stream';
export { validateResponsesStream } from './validate-responses-stream';
export { geminiArrayMessages, validateGeminiStream } from './validate-gemini-stream';
