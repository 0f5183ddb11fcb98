import {
  assertNever,
  formatDataURL,
  type AssistantMessage,
  type FilePart,
  type ImagePart,
  type JSONObject,
  type Message,
  type ReasoningPart,
  type TextPart,
  type ToolMessage,
  type TranslationWarning,
} from '@signalbox/core';

/**
 * IR messages → Responses `input` items, in order. System messages become `developer` items in
 * place; assistant history uses `output_text`/`refusal` parts (never `input_text`, which OpenAI
 * rejects), tool calls and results become `function_call` / `function_call_output` items.
 */
export function encodeOpenAIResponsesInput(
  messages: readonly Message[],
  warnings: TranslationWarning[],
): JSONObject[] {
  const items: JSONObject[] = [];
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'system':
        items.push({ type: 'message', role: 'developer', content: message.content.map(encodeTextPart) });
        return;
      case 'user':
        items.push({ type: 'message', role: 'user', content: message.content.map(encodeUserPart) });
        return;
      case 'assistant':
        encodeAssistantMessage(message, index, items, warnings);
        return;
      case 'tool':
        encodeToolMessage(message, index, items, warnings);
        return;
      default:
        return assertNever(message, 'IR message');
    }
  });
  return items;
}

function encodeAssistantMessage(
  message: AssistantMessage,
  index: number,
  items: JSONObject[],
  warnings: TranslationWarning[],
): void {
  const open: { content: JSONObject[] | undefined } = { content: undefined };
  const flush = () => {
    if (open.content) items.push({ type: 'message', role: 'assistant', content: open.content });
    open.content = undefined;
  };
  message.content.forEach((part, partIndex) => {
    switch (part.type) {
      case 'text':
        (open.content ??= []).push({ type: 'output_text', text: part.text, annotations: [] });
        return;
      case 'refusal':
        (open.content ??= []).push({ type: 'refusal', refusal: part.text });
        return;
      case 'tool-call':
        flush();
        items.push({
          type: 'function_call',
          call_id: part.callId,
          name: part.name,
          arguments: part.arguments === '' ? '{}' : part.arguments,
        });
        return;
      case 'reasoning': {
        flush();
        const item = encodeReasoningPart(part, `messages.${index}.content.${partIndex}`, warnings);
        if (item !== undefined) items.push(item);
        return;
      }
      default:
        return assertNever(part, 'IR assistant part');
    }
  });
  flush();
}

/** Only OpenAI's own encrypted reasoning can be replayed; anything else is dropped with a warning. */
function encodeReasoningPart(
  part: ReasoningPart,
  field: string,
  warnings: TranslationWarning[],
): JSONObject | undefined {
  if (part.encryptedContent === undefined) {
    warnings.push({
      type: 'lossy-conversion',
      field,
      details:
        'Reasoning without OpenAI encrypted content cannot be replayed to a Responses upstream; dropped.',
    });
    return undefined;
  }
  // No item `id`: with `store: false` OpenAI would look a replayed id up and fail ("Item … not found").
  return {
    type: 'reasoning',
    summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
    encrypted_content: part.encryptedContent,
  };
}

function encodeToolMessage(
  message: ToolMessage,
  index: number,
  items: JSONObject[],
  warnings: TranslationWarning[],
): void {
  message.content.forEach((result, resultIndex) => {
    if (result.isError) {
      warnings.push({
        type: 'lossy-conversion',
        field: `messages.${index}.content.${resultIndex}.isError`,
        details: 'Responses tool outputs have no error flag; the content is sent as it is.',
      });
    }
    const textOnly = result.content.every((part): part is TextPart => part.type === 'text');
    const output = textOnly
      ? result.content.map(part => (part as TextPart).text).join('\n')
      : result.content.map(encodeUserPart);
    items.push({ type: 'function_call_output', call_id: result.callId, output });
  });
}

function encodeTextPart(part: TextPart): JSONObject {
  return { type: 'input_text', text: part.text };
}

function encodeUserPart(part: TextPart | ImagePart | FilePart): JSONObject {
  switch (part.type) {
    case 'text':
      return encodeTextPart(part);
    case 'image':
      return {
        type: 'input_image',
        image_url:
          part.source.kind === 'url'
            ? part.source.url
            : formatDataURL(part.source.mediaType, part.source.data),
        detail: part.detail ?? 'auto',
      };
    case 'file':
      return encodeFilePart(part);
    default:
      return assertNever(part, 'IR user part');
  }
}

function encodeFilePart(part: FilePart): JSONObject {
  const { source } = part;
  if (source.kind === 'url')
    return { type: 'input_file', file_url: source.url, ...(part.filename && { filename: part.filename }) };
  const data = source.kind === 'base64' ? source.data : Buffer.from(source.data, 'utf8').toString('base64');
  // OpenAI wants a filename with inline `file_data`; name it after the media type when the client gave none.
  return {
    type: 'input_file',
    file_data: formatDataURL(source.mediaType, data),
    filename: part.filename ?? defaultFilename(source.mediaType),
  };
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/json': 'json',
};

function defaultFilename(mediaType: string): string {
  const extension = EXTENSIONS[mediaType];
  return extension ? `document.${extension}` : 'document';
}
