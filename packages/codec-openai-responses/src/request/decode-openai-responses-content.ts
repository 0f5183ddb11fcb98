import {
  assertNever,
  invalidParameter,
  parseDataURL,
  unsupportedParameter,
  type FilePart,
  type ImagePart,
  type TextPart,
  type TranslationWarning,
  quoteClientValue,
} from '@signalbox/core';
import type { OpenAIResponsesContentPart } from './openai-responses-request-schema';

type Path = readonly PropertyKey[];
type InputImagePart = Extract<OpenAIResponsesContentPart, { type: 'input_image' }>;
type InputFilePart = Extract<OpenAIResponsesContentPart, { type: 'input_file' }>;

/** A user-side part (`input_text` / `input_image` / `input_file`) → IR; anything else is a 400. */
export function decodeUserPart(
  part: OpenAIResponsesContentPart,
  path: Path,
): TextPart | ImagePart | FilePart {
  switch (part.type) {
    case 'input_text':
      return { type: 'text', text: part.text };
    case 'input_image':
      return decodeInputImage(part, path);
    case 'input_file':
      return decodeInputFile(part, path);
    case 'output_text':
    case 'refusal':
      throw invalidParameter(
        [...path, 'type'],
        `Invalid value: '${part.type}'. Supported values are: 'input_text', 'input_image' and 'input_file'`,
      );
    default:
      return assertNever(part, 'Responses content part');
  }
}

/** A system/developer part: text only, since IR system messages carry text. */
export function decodeSystemPart(part: OpenAIResponsesContentPart, path: Path): TextPart {
  if (part.type === 'input_text') return { type: 'text', text: part.text };
  if (part.type === 'input_image' || part.type === 'input_file') {
    throw unsupportedParameter(
      path,
      `'${part.type}' parts are not supported in system/developer messages; put them in a user message`,
    );
  }
  throw invalidParameter([...path, 'type'], `Invalid value: ${quoteClientValue(part.type)}. Supported values are: 'input_text'`);
}

/**
 * An assistant history part: `output_text` (or a lenient `input_text`) → text, `refusal` → refusal.
 * Annotations (citations) have no IR slot and are dropped with a warning.
 */
export function decodeAssistantPart(
  part: OpenAIResponsesContentPart,
  path: Path,
  warnings: TranslationWarning[],
): TextPart | { type: 'refusal'; text: string } {
  switch (part.type) {
    case 'output_text':
      if (part.annotations && part.annotations.length > 0) {
        warnings.push({
          type: 'lossy-conversion',
          field: [...path, 'annotations'].join('.'),
          details: 'Annotations are dropped.',
        });
      }
      return { type: 'text', text: part.text };
    case 'input_text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'refusal', text: part.refusal };
    case 'input_image':
    case 'input_file':
      throw invalidParameter(
        [...path, 'type'],
        `Invalid value: '${part.type}'. Supported values are: 'output_text' and 'refusal'`,
      );
    default:
      return assertNever(part, 'Responses content part');
  }
}

/** `input_image`: an https URL or a base64 data URL; vendor `file_id`s cannot be served. */
export function decodeInputImage(part: InputImagePart, path: Path): ImagePart {
  if (part.file_id) {
    throw unsupportedParameter(
      [...path, 'file_id'],
      'images given by `file_id` are not supported (file ids belong to one vendor); send `image_url` as an https or data URL',
    );
  }
  const url = part.image_url;
  if (!url) throw invalidParameter([...path, 'image_url'], 'Required: an https URL or a base64 data URL');
  const image: ImagePart = { type: 'image', source: { kind: 'url', url } };
  if (url.startsWith('data:')) {
    const inline = parseDataURL(url);
    if (!inline)
      throw invalidParameter(
        [...path, 'image_url'],
        'A data URL must be base64 encoded (data:<media type>;base64,<data>)',
      );
    image.source = { kind: 'base64', mediaType: inline.mediaType, data: inline.data };
  }
  if (part.detail) image.detail = part.detail;
  return image;
}

/** `input_file`: `file_data` (base64 data URL) or `file_url`; vendor `file_id`s cannot be served. */
export function decodeInputFile(part: InputFilePart, path: Path): FilePart {
  if (part.file_id) {
    throw unsupportedParameter(
      [...path, 'file_id'],
      'files given by `file_id` are not supported (file ids belong to one vendor); send `file_data` as a base64 data URL or `file_url`',
    );
  }
  let file: FilePart;
  if (part.file_data) {
    const inline = parseDataURL(part.file_data);
    if (!inline)
      throw invalidParameter([...path, 'file_data'], 'Must be a base64 data URL (data:<media type>;base64,<data>)');
    file = { type: 'file', source: { kind: 'base64', mediaType: inline.mediaType, data: inline.data } };
  } else if (part.file_url) {
    file = { type: 'file', source: { kind: 'url', url: part.file_url } };
  } else {
    throw invalidParameter(path, 'An input_file needs `file_data` or `file_url`');
  }
  if (part.filename) file.filename = part.filename;
  return file;
}
