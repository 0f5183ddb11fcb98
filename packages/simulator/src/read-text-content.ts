/** A plain object from the body, or undefined for anything else (the readers are lenient). */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A string field, or undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A finite number field, or undefined. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The text of a content value in any of the three protocols: a string, or an array of parts whose
 * `text` fields are joined (`text`, `input_text`, `output_text`, …). Other parts are skipped.
 */
export function readTextContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    const partText = asString(asRecord(part)?.text);
    if (partText !== undefined) text = text === '' ? partText : `${text}\n${partText}`;
  }
  return text;
}
