import {
  assertNever,
  formatDataURL,
  unsupportedParameter,
  type FilePart,
  type ImagePart,
  type JSONObject,
  type TextPart,
  type TranslationWarning,
} from '@signalbox/core';

/**
 * One IR user part → a Chat content part. Images go out as `image_url` (base64 as a `data:` URL),
 * inline files as `file.file_data`; plain-text documents become text (lossy, warned). A file known
 * only by URL cannot be sent to Chat, so it is refused rather than silently dropped.
 */
export function encodeOpenAIChatUserPart(
  part: TextPart | ImagePart | FilePart,
  path: string,
  warnings: TranslationWarning[],
): JSONObject {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return encodeImagePart(part);
    case 'file':
      return encodeFilePart(part, path, warnings);
    default:
      return assertNever(part, 'IR user part');
  }
}

function encodeImagePart(part: ImagePart): JSONObject {
  const url =
    part.source.kind === 'url' ? part.source.url : formatDataURL(part.source.mediaType, part.source.data);
  return { type: 'image_url', image_url: { url, ...(part.detail !== undefined && { detail: part.detail }) } };
}

function encodeFilePart(part: FilePart, path: string, warnings: TranslationWarning[]): JSONObject {
  switch (part.source.kind) {
    case 'base64':
      return {
        type: 'file',
        file: {
          file_data: formatDataURL(part.source.mediaType, part.source.data),
          ...(part.filename !== undefined && { filename: part.filename }),
        },
      };
    case 'text':
      warnings.push({
        type: 'lossy-conversion',
        field: path,
        details: 'A plain-text document was sent as text.',
      });
      return { type: 'text', text: part.source.data };
    case 'url':
      throw unsupportedParameter(path, 'Chat Completions cannot reference a file by URL; send it inline');
    default:
      return assertNever(part.source, 'IR file source');
  }
}
