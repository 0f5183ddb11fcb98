import type { StoredItem, StoredJSON, StoredResponse } from '../conversations/response-store';

/** One `responses` row as a SQL store reads it; `input` and `response` are JSON text. */
export type ResponseRow = {
  id: string;
  account_id: string;
  key_id: string;
  created_at: number;
  expires_at: number;
  previous_response_id: string | null;
  response: string;
  input: string;
  conversation_key: string | null;
};

/** The columns `saveResponse` writes, serialized once: their UTF-8 size is what counts against the cap. */
export type ResponseColumns = {
  input: string;
  response: string;
  bytes: number;
};

/** Where one item with an id sits in a response: its request's input items, or the response's `output`. */
export type ItemPosition = { itemId: string; source: 'input' | 'output'; position: number };

/** A fresh `StoredResponse` parsed from a row; `undefined` passes through. */
export function toStoredResponse(row: Record<string, unknown> | undefined): StoredResponse | undefined {
  if (!row) return undefined;
  const stored = row as ResponseRow;
  return {
    id: stored.id,
    accountId: stored.account_id,
    keyId: stored.key_id,
    createdAt: stored.created_at,
    expiresAt: stored.expires_at,
    ...(stored.previous_response_id !== null && { previousResponseId: stored.previous_response_id }),
    inputItems: JSON.parse(stored.input) as StoredItem[],
    response: JSON.parse(stored.response) as StoredJSON,
    ...(stored.conversation_key !== null && { conversationKey: stored.conversation_key }),
  };
}

/** The JSON columns of a record and their size, counted as `storedResponseBytes` counts it. */
export function toResponseColumns(record: StoredResponse): ResponseColumns {
  const input = JSON.stringify(record.inputItems);
  const response = JSON.stringify(record.response);
  return { input, response, bytes: Buffer.byteLength(input) + Buffer.byteLength(response) };
}

/**
 * Every item of the record that a later request can reference: input items by their stored id,
 * output items by their own `id` (output items without one cannot be referenced).
 */
export function listItemPositions(record: StoredResponse): ItemPosition[] {
  const positions: ItemPosition[] = record.inputItems.map((stored, position) => ({
    itemId: stored.id,
    source: 'input',
    position,
  }));
  const output: unknown = record.response['output'];
  if (!Array.isArray(output)) return positions;
  output.forEach((item: unknown, position) => {
    const itemId = (item as StoredJSON | null)?.['id'];
    if (typeof itemId === 'string') positions.push({ itemId, source: 'output', position });
  });
  return positions;
}

/**
 * The values of a new `responses` row, in the order `id, account_id, key_id, created_at,
 * expires_at, previous_response_id, response, input, conversation_key, bytes`.
 */
export function responseRowValues(record: StoredResponse, columns: ResponseColumns): Array<string | number | null> {
  return [
    record.id,
    record.accountId,
    record.keyId,
    record.createdAt,
    record.expiresAt,
    record.previousResponseId ?? null,
    columns.response,
    columns.input,
    record.conversationKey ?? null,
    columns.bytes,
  ];
}
