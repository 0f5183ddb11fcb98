/**
 * The emulated clouds' tokenizer for token counts (Bedrock's CountTokens, Vertex AI's count-tokens):
 * one token per word of the system's and messages' string text, plus 3 per message, which differs
 * from the gateway's own estimate, so a test can tell which answered.
 */
export function emulatedTokenCount(body: { system?: unknown; messages: { content: unknown }[] }): number {
  const words = (text: unknown) => (typeof text === 'string' ? text.split(/\s+/).filter(Boolean).length : 0);
  return words(body.system) + body.messages.reduce((sum, message) => sum + 3 + words(message.content), 0);
}
