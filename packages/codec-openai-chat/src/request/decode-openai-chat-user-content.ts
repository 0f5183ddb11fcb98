import {
  assertNever,
  invalidParameter,
  parseDataURL,
  unsupportedParameter,
  type FilePart,
  type ImagePart,
  type TextPart,
} from '@signalbox/core';
import type { OpenAIChatUserMessage } from './openai-chat-request-schema';

type UserPart = TextPart | ImagePart | FilePart;
type WireUserPart = Exclude<OpenAIChatUserMessage['content'], string>[number];

/**
 * A client's user `content` → IR parts. Inline images and files (`data:` URLs) become base64
 * parts; `file_id` references and `input_audio` cannot be served across vendors and are refused.
 * `path` is the message's dotted path (`messages.3`), used to name the field at fault.
 */
export function decodeOpenAIChatUserContent(
  content: OpenAIChatUserMessage['content'],
  path: string,
): UserPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const parts: UserPart[] = [];
  content.forEach((part, index) => {
    const decoded = decodeUserPart(part, `${path}.content.${index}`);
    if (decoded) parts.push(decoded);
  });
  return parts;
}

function decodeUserPart(part: WireUserPart, path: string): UserPart | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'image_url':
      return decodeImagePart(part.image_url);
    case 'file':
      return decodeFilePart(part.file, path);
    case 'input_audio':
      throw unsupportedParameter(path, 'audio input (input_audio content parts) is not supported by this gateway');
    default:
      return assertNever(part, 'Chat user content part');
  }
}

function decodeImagePart(image: { url: string; detail?: ImagePart['detail'] }): ImagePart {
  const inline = parseDataURL(image.url);
  const source: ImagePart['source'] = inline
    ? { kind: 'base64', mediaType: inline.mediaType, data: inline.data }
    : { kind: 'url', url: image.url };
  return { type: 'image', source, ...(image.detail !== undefined && { detail: image.detail }) };
}

function decodeFilePart(
  file: { file_data?: string; file_id?: string; filename?: string },
  path: string,
): FilePart {
  if (file.file_id !== undefined) {
    throw unsupportedParameter(
      `${path}.file.file_id`,
      'files referenced by file_id are not supported; send the file inline as file_data',
    );
  }
  const inline = file.file_data === undefined ? undefined : parseDataURL(file.file_data);
  if (!inline) {
    throw invalidParameter(
      `${path}.file.file_data`,
      "must be a base64 data: URL ('data:<media type>;base64,<data>')",
    );
  }
  return {
    type: 'file',
    source: { kind: 'base64', mediaType: inline.mediaType, data: inline.data },
    ...(file.filename !== undefined && { filename: file.filename }),
  };
}
