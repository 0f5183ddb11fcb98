import type { GenerationRequest, Message } from '@switchyard/core';

/** Characters per token for the estimate: a common rule of thumb for English text and code. */
const CHARACTERS_PER_TOKEN = 4;
/** What one image or file is counted as, without decoding it. */
const TOKENS_PER_ATTACHMENT = 1_000;

/**
 * An honest, cheap estimate of a request's input tokens: characters / 4 over every text the model
 * reads (system, messages, tool calls and results, tool definitions), plus a flat 1 000 per image
 * or file. No tokenizer runs; it only sums string lengths, which the JSON parse already paid for.
 */
export function estimateInputTokens(request: GenerationRequest): number {
  let characters = 0;
  let attachments = 0;
  for (const part of request.system) characters += part.text.length;
  for (const message of request.messages) {
    const counted = countMessage(message);
    characters += counted.characters;
    attachments += counted.attachments;
  }
  for (const tool of request.tools ?? []) {
    characters += tool.name.length + (tool.description?.length ?? 0) + JSON.stringify(tool.inputSchema).length;
  }
  return Math.ceil(characters / CHARACTERS_PER_TOKEN) + attachments * TOKENS_PER_ATTACHMENT;
}

function countMessage(message: Message): { characters: number; attachments: number } {
  let characters = 0;
  let attachments = 0;
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
      case 'refusal':
      case 'reasoning':
        characters += part.text.length;
        break;
      case 'tool-call':
        characters += part.name.length + part.arguments.length;
        break;
      case 'tool-result':
        for (const inner of part.content) {
          if (inner.type === 'text') characters += inner.text.length;
          else attachments += 1;
        }
        break;
      case 'image':
      case 'file':
        attachments += 1;
        break;
    }
  }
  return { characters, attachments };
}
