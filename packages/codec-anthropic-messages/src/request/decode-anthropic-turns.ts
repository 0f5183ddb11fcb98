import { withDecodedCacheControl } from '../cache/anthropic-cache-control';
import { decodeAnthropicAssistantBlock } from '../response/decode-anthropic-output-block';
import {
  assertNever,
  invalidParameter,
  unsupportedParameter,
  type AssistantMessage,
  type FilePart,
  type ImagePart,
  type Message,
  type SystemMessage,
  type TextPart,
  type ToolCallPart,
  type ToolResultPart,
  type TranslationWarning,
  type UserMessage,
  quoteClientValue,
} from '@signalbox/core';
import {
  isUnsupportedBlock,
  type AnthropicContentBlockParam,
  type AnthropicDocumentBlockParam,
  type AnthropicImageBlockParam,
  type AnthropicToolResultBlockParam,
} from '../schema/anthropic-content-schema';
import type { AnthropicMessageParam } from '../schema/anthropic-request-schema';

type AnthropicSystemTurnParam = Extract<AnthropicMessageParam, { role: 'system' }>;
type AnthropicConversationTurnParam = Exclude<AnthropicMessageParam, { role: 'system' }>;

type UserContent = UserMessage['content'][number];

/**
 * Messages turns → IR messages. A user turn's `tool_result` blocks become an IR `tool` message,
 * followed by an IR user message with the turn's other blocks (when it has any). A system turn
 * stays an IR system message in its place, so a translation keeps its instructions in order.
 */
export function decodeAnthropicTurns(
  messages: readonly AnthropicMessageParam[],
  warnings: TranslationWarning[],
): Message[] {
  const decoded: Message[] = [];
  messages.forEach((message, index) => {
    const path = `messages.${index}`;
    if (message.role === 'system') decoded.push(decodeSystemTurn(message.content));
    else if (message.role === 'assistant') decoded.push(decodeAssistantMessage(message.content, path));
    else decoded.push(...decodeUserMessage(message.content, path, warnings));
  });
  return decoded;
}

function decodeSystemTurn(content: AnthropicSystemTurnParam['content']): SystemMessage {
  if (typeof content === 'string') return { role: 'system', content: textParts(content) };
  return {
    role: 'system',
    content: content.map(block => withDecodedCacheControl<TextPart>({ type: 'text', text: block.text }, block.cache_control)),
  };
}

function decodeUserMessage(
  content: AnthropicConversationTurnParam['content'],
  path: string,
  warnings: TranslationWarning[],
): Message[] {
  if (typeof content === 'string') return [{ role: 'user', content: textParts(content) }];
  const parts: UserContent[] = [];
  const results: ToolResultPart[] = [];
  content.forEach((block, index) => {
    const blockPath = `${path}.content.${index}`;
    if (block.type === 'tool_result') results.push(decodeToolResult(block, blockPath, warnings));
    else parts.push(decodeUserBlock(block, blockPath, warnings));
  });
  const decoded: Message[] = [];
  if (results.length > 0) decoded.push({ role: 'tool', content: results });
  if (parts.length > 0 || results.length === 0) decoded.push({ role: 'user', content: parts });
  return decoded;
}

function decodeUserBlock(
  block: Exclude<AnthropicContentBlockParam, { type: 'tool_result' }>,
  path: string,
  warnings: TranslationWarning[],
): UserContent {
  if (isUnsupportedBlock(block)) throw unsupportedBlock(block.type, path);
  switch (block.type) {
    case 'text':
      return withDecodedCacheControl<TextPart>({ type: 'text', text: block.text }, block.cache_control);
    case 'image':
      return decodeImage(block, path);
    case 'document':
      return decodeDocument(block, path, warnings);
    case 'tool_use':
    case 'thinking':
    case 'redacted_thinking':
      throw invalidParameter(`${path}.type`, `'${block.type}' blocks are only allowed in assistant messages`);
    default:
      return assertNever(block, 'Anthropic content block');
  }
}

function decodeAssistantMessage(content: AnthropicConversationTurnParam['content'], path: string): AssistantMessage {
  if (typeof content === 'string') return { role: 'assistant', content: textParts(content) };
  const parts = content.map((block, index): AssistantMessage['content'][number] => {
    const blockPath = `${path}.content.${index}`;
    if (isUnsupportedBlock(block)) throw unsupportedBlock(block.type, blockPath);
    switch (block.type) {
      case 'text':
      case 'tool_use':
        return withDecodedCacheControl(decodeAnthropicAssistantBlock(block) as TextPart | ToolCallPart, block.cache_control);
      case 'thinking':
      case 'redacted_thinking':
        return decodeAnthropicAssistantBlock(block) as AssistantMessage['content'][number];
      case 'tool_result':
        throw invalidParameter(`${blockPath}.type`, "'tool_result' blocks are only allowed in user messages");
      case 'image':
      case 'document':
        throw unsupportedParameter(
          `${blockPath}.type`,
          `'${block.type}' blocks in assistant messages are not supported by this gateway`,
        );
      default:
        return assertNever(block, 'Anthropic content block');
    }
  });
  return { role: 'assistant', content: parts };
}

function decodeToolResult(
  block: AnthropicToolResultBlockParam,
  path: string,
  warnings: TranslationWarning[],
): ToolResultPart {
  const content: ToolResultPart['content'] = [];
  if (typeof block.content === 'string') content.push(...textParts(block.content));
  else {
    block.content?.forEach((inner, index) => {
      const innerPath = `${path}.content.${index}`;
      if (isUnsupportedBlock(inner)) throw unsupportedBlock(inner.type, innerPath);
      if (inner.type === 'text') content.push(withDecodedCacheControl<TextPart>({ type: 'text', text: inner.text }, inner.cache_control));
      else if (inner.type === 'image') content.push(decodeImage(inner, innerPath));
      else content.push(decodeDocument(inner, innerPath, warnings));
    });
  }
  const result: ToolResultPart = { type: 'tool-result', callId: block.tool_use_id, content };
  if (block.is_error !== undefined) result.isError = block.is_error;
  return withDecodedCacheControl(result, block.cache_control);
}

function decodeImage(block: AnthropicImageBlockParam, path: string): ImagePart {
  const source = block.source;
  if (source.type === 'file') throw fileSourceError(`${path}.source.type`);
  const image: ImagePart =
    source.type === 'base64'
      ? { type: 'image', source: { kind: 'base64', mediaType: source.media_type, data: source.data } }
      : { type: 'image', source: { kind: 'url', url: source.url } };
  return withDecodedCacheControl(image, block.cache_control);
}

function decodeDocument(
  block: AnthropicDocumentBlockParam,
  path: string,
  warnings: TranslationWarning[],
): FilePart {
  if (block.citations?.enabled) {
    warnings.push({
      type: 'unsupported-field',
      field: `${path}.citations`,
      details: 'Citations are not carried across protocols.',
    });
  }
  return withDecodedCacheControl(decodeDocumentSource(block, path), block.cache_control);
}

function decodeDocumentSource(block: AnthropicDocumentBlockParam, path: string): FilePart {
  const filename = block.title ? { filename: block.title } : {};
  const source = block.source;
  switch (source.type) {
    case 'base64':
      return {
        type: 'file',
        source: { kind: 'base64', mediaType: source.media_type, data: source.data },
        ...filename,
      };
    case 'text':
      return {
        type: 'file',
        source: { kind: 'text', mediaType: source.media_type, data: source.data },
        ...filename,
      };
    case 'url':
      return { type: 'file', source: { kind: 'url', url: source.url }, ...filename };
    case 'content':
      throw unsupportedParameter(
        `${path}.source.type`,
        "document sources of type 'content' are not supported by this gateway",
      );
    case 'file':
      throw fileSourceError(`${path}.source.type`);
    default:
      return assertNever(source, 'Anthropic document source');
  }
}

function textParts(text: string): TextPart[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

function fileSourceError(param: string) {
  return unsupportedParameter(param, "'file' sources (Files API ids) are not supported by this gateway");
}

function unsupportedBlock(type: string, path: string) {
  return unsupportedParameter(`${path}.type`, `${quoteClientValue(type)} blocks (server tools) are not supported by this gateway`);
}
