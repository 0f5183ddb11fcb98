import { withEncodedCacheControl } from '../cache/anthropic-cache-control';
import { quoteMediaType } from './quote-media-type';
import { toAnthropicToolId } from './to-anthropic-tool-id';
import {
  invalidParameter,
  isJSONObject,
  parseDataURL,
  unsupportedParameter,
  type FilePart,
  type ImagePart,
  type JSONObject,
  type ToolResultPart,
} from '@signalbox/core';
import { ANTHROPIC_IMAGE_MEDIA_TYPES } from '../schema/anthropic-content-schema';

const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(ANTHROPIC_IMAGE_MEDIA_TYPES);

/** An IR image → an `image` block; `data:` URLs become base64 sources. Only jpeg/png/gif/webp pass. */
export function encodeAnthropicImage(part: ImagePart, path: string): JSONObject {
  return withEncodedCacheControl(encodeImageSource(part, path), part);
}

function encodeImageSource(part: ImagePart, path: string): JSONObject {
  const source = part.source.kind === 'url' ? (parseDataURL(part.source.url) ?? part.source) : part.source;
  if ('url' in source) return { type: 'image', source: { type: 'url', url: source.url } };
  const mediaType = source.mediaType.toLowerCase();
  if (!IMAGE_MEDIA_TYPES.has(mediaType)) {
    throw unsupportedParameter(
      `${path}.source`,
      `image media type ${quoteMediaType(source.mediaType)} is not supported by Anthropic (jpeg, png, gif and webp are)`,
    );
  }
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: source.data } };
}

/** An IR file → a `document` block: PDFs as base64, text as a plain-text source, URLs as they are. */
export function encodeAnthropicDocument(part: FilePart, path: string): JSONObject {
  return withEncodedCacheControl(encodeDocumentSource(part, path), part);
}

function encodeDocumentSource(part: FilePart, path: string): JSONObject {
  const title = part.filename !== undefined ? { title: part.filename } : {};
  const source = part.source.kind === 'url' ? (parseDataURL(part.source.url) ?? part.source) : part.source;
  if ('url' in source) return { type: 'document', source: { type: 'url', url: source.url }, ...title };
  if ('kind' in source && source.kind === 'text') {
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: source.data },
      ...title,
    };
  }
  const mediaType = source.mediaType.toLowerCase();
  if (mediaType === 'application/pdf') {
    return {
      type: 'document',
      source: { type: 'base64', media_type: mediaType, data: source.data },
      ...title,
    };
  }
  if (mediaType.startsWith('text/')) {
    const text = Buffer.from(source.data, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...title };
  }
  throw unsupportedParameter(
    `${path}.source`,
    `file media type ${quoteMediaType(source.mediaType)} is not supported by Anthropic (PDF and plain text are)`,
  );
}

/**
 * Tool-call arguments (JSON text) → the `input` object Messages requires. `""` means none (`{}`);
 * text that is not a JSON object cannot be carried, so the request is refused naming the part.
 */
export function encodeAnthropicToolInput(argumentsText: string, path: string): JSONObject {
  if (argumentsText.trim() === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(argumentsText);
  } catch {
    throw invalidParameter(`${path}.arguments`, 'tool call arguments are not valid JSON');
  }
  if (!isJSONObject(input)) {
    throw invalidParameter(`${path}.arguments`, 'tool call arguments must be a JSON object');
  }
  return input;
}

/** An IR tool result → a `tool_result` block (text, image and document content). */
export function encodeAnthropicToolResult(part: ToolResultPart, path: string): JSONObject {
  const content: JSONObject[] = [];
  part.content.forEach((inner, index) => {
    const innerPath = `${path}.content.${index}`;
    if (inner.type === 'text') {
      if (inner.text !== '') content.push(withEncodedCacheControl({ type: 'text', text: inner.text }, inner));
    } else if (inner.type === 'image') content.push(encodeAnthropicImage(inner, innerPath));
    else content.push(encodeAnthropicDocument(inner, innerPath));
  });
  const block: JSONObject = { type: 'tool_result', tool_use_id: toAnthropicToolId(part.callId) };
  if (content.length > 0) block.content = content;
  if (part.isError !== undefined) block.is_error = part.isError;
  return withEncodedCacheControl(block, part);
}
