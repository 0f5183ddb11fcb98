import type { GenerationRequest, Message } from '@signalbox/core';

/**
 * The fixed instruction the route's model summarises a conversation under (documented in the
 * README, "Remote compaction"). The summary replaces everything but the user messages, which the
 * compacted output keeps verbatim, so it is asked to carry the rest: decisions, results, state.
 */
export const COMPACTION_INSTRUCTION = [
  'You compact a conversation between a user and an assistant so that it can continue without its full history.',
  'Write a concise summary of the conversation below for the assistant that will continue it.',
  "The user's own messages are kept verbatim elsewhere, so do not repeat them; keep everything else that matters:",
  'the task and its current state, decisions made, tool calls and what their results showed, files, names, numbers',
  'and identifiers mentioned, errors met, and what remains to be done.',
  'Write plain text only, in the language of the conversation; do not answer the user or call tools.',
].join(' ');

/**
 * The one non-streaming generation that writes a compaction's summary: the instruction as its
 * system text and the conversation as a transcript in a single user message. A transcript rather
 * than the items themselves works on every upstream protocol: tool calls without tool definitions,
 * signed reasoning or turn-order rules cannot make the summary call fail.
 */
export function buildSummaryRequest(conversation: GenerationRequest): GenerationRequest {
  const transcript = [
    ...conversation.system.map(part => `[instructions]\n${part.text}`),
    ...conversation.messages.map(describeMessage),
  ].join('\n\n');
  return {
    model: conversation.model,
    system: [{ type: 'text', text: COMPACTION_INSTRUCTION }],
    messages: [{ role: 'user', content: [{ type: 'text', text: `The conversation to summarise:\n\n${transcript}` }] }],
    stream: false,
  };
}

function describeMessage(message: Message): string {
  const lines = message.content.map(part => {
    switch (part.type) {
      case 'text':
      case 'refusal':
        return part.text;
      case 'reasoning':
        return part.text === '' ? '' : `(reasoning) ${part.text}`;
      case 'tool-call':
        return `(called tool ${part.name} with ${part.arguments})`;
      case 'tool-result':
        return `(result of tool call ${part.callId}${part.isError ? ', an error' : ''}) ${part.content
          .map(inner => (inner.type === 'text' ? inner.text : `[${inner.type}]`))
          .join('\n')}`;
      case 'image':
      case 'file':
        return `[${part.type}]`;
    }
  });
  return `[${message.role}]\n${lines.filter(line => line !== '').join('\n')}`;
}
