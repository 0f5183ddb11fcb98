import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONObject, SSEMessage } from '@signalbox/core';
import { parseSSEText } from './parse-sse-text';
import { parseJSONObject } from './value-guards';

/** Test-only: reads `__fixtures__/<name>.stream.sse` (wire-shaped synthetic, see the README there) as messages. */
export function readStreamFixture(name: string): SSEMessage[] {
  return parseSSEText(readFileSync(join(__dirname, '..', '__fixtures__', `${name}.stream.sse`), 'utf8'));
}

/** The JSON data of one message; throws so a broken test setup fails loudly. */
export function dataOf(message: SSEMessage | undefined): JSONObject {
  const data = message ? parseJSONObject(message.data) : undefined;
  if (!data) throw new Error(`test setup: not a JSON message: ${message?.data}`);
  return data;
}

/** A copy of `messages` with the data of message `index` changed in place by `change` (event line kept). */
export function mutateData(
  messages: readonly SSEMessage[],
  index: number,
  change: (data: JSONObject) => void,
): SSEMessage[] {
  return messages.map((message, position) => {
    if (position !== index) return message;
    const data = dataOf(message);
    change(data);
    return { ...message, data: JSON.stringify(data) };
  });
}

/** A copy with every JSON message's data changed by `change`; `[DONE]` and invalid frames are kept. */
export function mutateEveryData(
  messages: readonly SSEMessage[],
  change: (data: JSONObject, index: number) => void,
): SSEMessage[] {
  return messages.map((message, index) => {
    const data = parseJSONObject(message.data);
    if (!data) return message;
    change(data, index);
    return { ...message, data: JSON.stringify(data) };
  });
}

/** A copy with message `index` replaced. */
export function replaceMessage(
  messages: readonly SSEMessage[],
  index: number,
  message: SSEMessage,
): SSEMessage[] {
  return messages.map((original, position) => (position === index ? message : original));
}

/** A copy without message `index`. */
export function removeMessage(messages: readonly SSEMessage[], index: number): SSEMessage[] {
  return messages.filter((_, position) => position !== index);
}

/** A copy with `inserted` placed before position `index` (`messages.length` appends). */
export function insertMessage(
  messages: readonly SSEMessage[],
  index: number,
  inserted: SSEMessage,
): SSEMessage[] {
  return [...messages.slice(0, index), inserted, ...messages.slice(index)];
}

/** A copy with messages `first` and `second` swapped. */
export function swapMessages(messages: readonly SSEMessage[], first: number, second: number): SSEMessage[] {
  const copy = [...messages];
  const [a, b] = [copy[first], copy[second]];
  if (!a || !b) throw new Error('test setup: swap index out of range');
  copy[first] = b;
  copy[second] = a;
  return copy;
}

/** A named event frame (`event:` equal to `data.type`), as Responses and Messages streams send. */
export function namedEvent(data: JSONObject): SSEMessage {
  return { event: String(data.type), data: JSON.stringify(data) };
}

/** Renumbers Responses `sequence_number`s 0,1,2… so a test that adds or drops an event isolates one rule. */
export function resequence(messages: readonly SSEMessage[]): SSEMessage[] {
  return mutateEveryData(messages, (data, index) => {
    data.sequence_number = index;
  });
}

/** Index of the `occurrence`-th (0-based) message whose data `type` equals `type`. */
export function indexOfType(messages: readonly SSEMessage[], type: string, occurrence = 0): number {
  let seen = 0;
  const found = messages.findIndex(
    message => parseJSONObject(message.data)?.type === type && seen++ === occurrence,
  );
  if (found < 0) throw new Error(`test setup: no ${type} #${occurrence}`);
  return found;
}
