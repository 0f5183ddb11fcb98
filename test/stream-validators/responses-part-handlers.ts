import { isJSONObject, type JSONObject } from '@signalbox/core';
import { reportViolation } from './report-violation';
import { resolveResponsesItem } from './responses-item-handlers';
import type { ResponsesItem, ResponsesPart, ResponsesStreamState } from './responses-stream-state';
import { formatValue, isInteger } from './value-guards';

/** Where each part type lives and which field holds its text (in `part` objects and `.done` events). */
const PART_TYPES: Readonly<Record<string, { itemType: string; textField: string }>> = {
  output_text: { itemType: 'message', textField: 'text' },
  refusal: { itemType: 'message', textField: 'refusal' },
  reasoning_text: { itemType: 'reasoning', textField: 'text' },
};

/** The text-bearing part events: which part type they need and whether they are the `.delta` or the `.done`. */
const PART_TEXT_EVENTS: Readonly<Record<string, { partType: string; kind: 'delta' | 'done' }>> = {
  'response.output_text.delta': { partType: 'output_text', kind: 'delta' },
  'response.output_text.done': { partType: 'output_text', kind: 'done' },
  'response.refusal.delta': { partType: 'refusal', kind: 'delta' },
  'response.refusal.done': { partType: 'refusal', kind: 'done' },
  'response.reasoning_text.delta': { partType: 'reasoning_text', kind: 'delta' },
  'response.reasoning_text.done': { partType: 'reasoning_text', kind: 'done' },
};

/** True for the six `*.delta` / `*.done` events that stream into a content part. */
export function isPartTextEvent(type: string): boolean {
  return type in PART_TEXT_EVENTS;
}

/** `response.content_part.added`: a known part type on a fitting item, `content_index` contiguous per item. */
export function handleContentPartAdded(state: ResponsesStreamState, data: JSONObject): void {
  const part = data.part;
  const spec = isJSONObject(part) && typeof part.type === 'string' ? PART_TYPES[part.type] : undefined;
  if (!isJSONObject(part) || !spec) {
    reportViolation(state, `part must be output_text, refusal or reasoning_text, got ${formatValue(part)}`);
    return;
  }
  const item = resolveResponsesItem(state, data, spec.itemType);
  if (!item) return;
  const contentIndex = data.content_index;
  if (!isInteger(contentIndex)) {
    reportViolation(state, `content_index must be an integer, got ${formatValue(contentIndex)}`);
    return;
  }
  if (contentIndex !== item.parts.length) {
    reportViolation(
      state,
      `content_index ${contentIndex}, expected ${item.parts.length} (contiguous per item)`,
    );
  }
  const initial = part[spec.textField];
  if (typeof initial !== 'string') {
    reportViolation(state, `part.${spec.textField} must be a string, got ${formatValue(initial)}`);
  }
  item.parts.push({
    contentIndex,
    type: String(part.type),
    text: typeof initial === 'string' ? initial : '',
    textDone: false,
    done: false,
  });
}

/** Text deltas and `.done`s: only on an open part of the right type; `.done` text equals the concatenated deltas. */
export function handlePartTextEvent(state: ResponsesStreamState, type: string, data: JSONObject): void {
  const spec = PART_TEXT_EVENTS[type];
  if (!spec) return;
  const itemType = PART_TYPES[spec.partType]?.itemType;
  const part = resolvePart(state, resolveResponsesItem(state, data, itemType), data);
  if (!part) return;
  if (part.type !== spec.partType) {
    reportViolation(state, `targets a ${part.type} part; needs ${spec.partType}`);
  }
  if (part.textDone || part.done) reportViolation(state, `part ${part.contentIndex} is already done`);
  const field = spec.kind === 'delta' ? 'delta' : (PART_TYPES[spec.partType]?.textField ?? 'text');
  const value = data[field];
  if (typeof value !== 'string') {
    reportViolation(state, `${field} must be a string, got ${formatValue(value)}`);
    return;
  }
  if (spec.kind === 'delta') {
    part.text += value;
    if (spec.partType === 'output_text') state.text += value;
    return;
  }
  if (value !== part.text) {
    reportViolation(
      state,
      `${field} ${formatValue(value)} differs from the concatenated deltas ${formatValue(part.text)}`,
    );
  }
  part.textDone = true;
}

/** `response.output_text.annotation.added`: on an existing output_text part with an annotation object. */
export function handleAnnotationAdded(state: ResponsesStreamState, data: JSONObject): void {
  const part = resolvePart(state, resolveResponsesItem(state, data, 'message'), data);
  if (part && part.type !== 'output_text') reportViolation(state, `annotation on a ${part.type} part`);
  if (!isInteger(data.annotation_index)) {
    reportViolation(state, `annotation_index must be an integer, got ${formatValue(data.annotation_index)}`);
  }
  if (!isJSONObject(data.annotation)) {
    reportViolation(state, `annotation must be an object, got ${formatValue(data.annotation)}`);
  }
}

/** `response.content_part.done`: once, after the part's own `.done`, with the same type and final text. */
export function handleContentPartDone(state: ResponsesStreamState, data: JSONObject): void {
  const final = data.part;
  const finalType = isJSONObject(final) ? final.type : undefined;
  const itemType = typeof finalType === 'string' ? PART_TYPES[finalType]?.itemType : undefined;
  const part = resolvePart(state, resolveResponsesItem(state, data, itemType), data);
  if (!part) return;
  if (part.done) reportViolation(state, `second content_part.done for part ${part.contentIndex}`);
  if (!part.textDone) {
    reportViolation(
      state,
      `content_part.done before the ${part.type} .done event of part ${part.contentIndex}`,
    );
  }
  part.done = true;
  if (!isJSONObject(final) || finalType !== part.type) {
    reportViolation(state, `part must be a ${part.type} object, got ${formatValue(final)}`);
    return;
  }
  const field = PART_TYPES[part.type]?.textField ?? 'text';
  if (final[field] !== part.text) {
    reportViolation(
      state,
      `part.${field} ${formatValue(final[field])} differs from the streamed ${formatValue(part.text)}`,
    );
  }
}

function resolvePart(
  state: ResponsesStreamState,
  item: ResponsesItem | undefined,
  data: JSONObject,
): ResponsesPart | undefined {
  if (!item) return undefined;
  const contentIndex = data.content_index;
  const part = item.parts.find(candidate => candidate.contentIndex === contentIndex);
  if (!part) {
    reportViolation(
      state,
      `content_index ${formatValue(contentIndex)} of item "${item.id}" has no content_part.added`,
    );
  }
  return part;
}
