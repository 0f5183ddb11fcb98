import type { GenerationRequest, Message } from '@signalbox/core';

/** UTF-8 bytes per token for the estimate: English text and code average about four. */
const BYTES_PER_TOKEN = 4;
/** What one image or file is counted as, without decoding it. */
const TOKENS_PER_ATTACHMENT = 1_000;

/**
 * A conservative, cheap estimate of a request's input tokens over every text the model reads
 * (system, messages, tool calls and results, tool definitions), plus a flat 1 000 per image or file.
 * No tokenizer runs. Characters / 4 undercounts other scripts (a CJK character is often a whole
 * token or more), so text is counted in UTF-8 bytes / 4, plus half a token for every byte a
 * character takes beyond its UTF-16 length: ASCII stays at 4 bytes a token, Cyrillic counts one
 * token a character, CJK 1.75 and an emoji 2, at or above what tokenizers produce for them.
 */
export function estimateInputTokens(request: GenerationRequest): number {
  const counter = { bytes: 0, extraBytes: 0, attachments: 0 };
  const count = (text: string) => {
    const bytes = Buffer.byteLength(text, 'utf8');
    counter.bytes += bytes;
    counter.extraBytes += bytes - text.length;
  };
  for (const part of request.system) count(part.text);
  for (const message of request.messages) counter.attachments += countMessage(message, count);
  for (const tool of request.tools ?? []) {
    count(tool.name);
    count(tool.description ?? '');
    count(JSON.stringify(tool.inputSchema));
  }
  return Math.ceil(counter.bytes / BYTES_PER_TOKEN + counter.extraBytes / 2) + counter.attachments * TOKENS_PER_ATTACHMENT;
}

/** Counts a message's texts through `count` and returns how many attachments it has. */
function countMessage(message: Message, count: (text: string) => void): number {
  let attachments = 0;
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
      case 'refusal':
      case 'reasoning':
        count(part.text);
        break;
      case 'tool-call':
        count(part.name);
        count(part.arguments);
        break;
      case 'tool-result':
        for (const inner of part.content) {
          if (inner.type === 'text') count(inner.text);
          else attachments += 1;
        }
        break;
      case 'image':
      case 'file':
        attachments += 1;
        break;
    }
  }
  return attachments;
}
