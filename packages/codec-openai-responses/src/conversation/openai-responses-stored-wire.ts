import {
  GatewayError,
  invalidParameter,
  isJSONObject,
  quoteClientName,
  type JSONObject,
  type SSEMessage,
  type StoredItemPage,
  type StoredItemQuery,
} from '@signalbox/core';

/** Statuses of an answer worth keeping: a failed response cannot be continued. */
const KEPT_STATUSES: ReadonlySet<unknown> = new Set(['completed', 'incomplete']);
/** The terminal stream events whose `response` is kept. */
const KEPT_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete']);

/** The response object of a JSON answer, when it completed or stopped incomplete. */
export function openAIResponsesResponseOfAnswer(body: JSONObject): JSONObject | undefined {
  return body.object === 'response' && KEPT_STATUSES.has(body.status) ? body : undefined;
}

/**
 * The `response` of a `response.completed` / `response.incomplete` frame. Other frames are told
 * apart by their event name (or a look at the text when a stream sends none), never parsed.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/response/completed
 */
export function openAIResponsesResponseOfStreamFrame(message: SSEMessage): JSONObject | undefined {
  if (message.event !== undefined ? !KEPT_EVENTS.has(message.event) : !/"type":\s*"response\.(completed|incomplete)"/.test(message.data)) {
    return undefined;
  }
  try {
    // A frame the gateway encoded carries its object; only an upstream's frame is parsed.
    const data: unknown = message.parsed ?? JSON.parse(message.data);
    return isJSONObject(data) && isJSONObject(data.response) && KEPT_EVENTS.has(String(data.type)) ? data.response : undefined;
  } catch {
    return undefined;
  }
}

/** The `id` of a response object. */
export function openAIResponsesIdOf(response: JSONObject): string | undefined {
  return typeof response.id === 'string' ? response.id : undefined;
}

/**
 * A 404 worded as the API words it (`Previous response with id '…' not found.`), naming the id
 * (cut to the length errors quote) and the parameter that carried it.
 */
export function openAIResponsesNotFound(kind: 'response' | 'previous-response' | 'item', id: string, param?: string): GatewayError {
  const what = kind === 'item' ? 'Item' : kind === 'response' ? 'Response' : 'Previous response';
  return new GatewayError({
    code: 'RESOURCE_NOT_FOUND',
    message: `${what} with id ${quoteClientName(id, '(not an ID)')} not found.`,
    ...(param !== undefined ? { param } : kind === 'previous-response' && { param: 'previous_response_id' }),
  });
}

/**
 * The query of `GET /v1/responses/{id}/input_items`: `after`, `before`, `limit` (1–100, default 20),
 * `order` (`asc` | `desc`, default `desc`); `include` is accepted (stored items are kept whole).
 * @see https://platform.openai.com/docs/api-reference/responses/input-items
 */
export function decodeOpenAIResponsesItemQuery(query: Readonly<Record<string, unknown>>): StoredItemQuery {
  const result: StoredItemQuery = { limit: 20, order: 'desc' };
  const { after, before, limit, order } = query;
  if (after !== undefined) result.after = singleText(after, 'after');
  if (before !== undefined) result.before = singleText(before, 'before');
  if (limit !== undefined) {
    const text = singleText(limit, 'limit');
    const value = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (!(value >= 1 && value <= 100)) throw invalidParameter('limit', 'Expected an integer from 1 to 100');
    result.limit = value;
  }
  if (order !== undefined) {
    const text = singleText(order, 'order');
    if (text !== 'asc' && text !== 'desc') throw invalidParameter('order', "Expected 'asc' or 'desc'");
    result.order = text;
  }
  return result;
}

function singleText(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidParameter(name, 'Expected one text value');
  return value;
}

/** The answer to `DELETE /v1/responses/{id}`. */
export function encodeOpenAIResponsesDeleted(id: string): JSONObject {
  return { id, object: 'response.deleted', deleted: true };
}

/** One page of input items in the API's list shape. */
export function encodeOpenAIResponsesItemPage(page: StoredItemPage): JSONObject {
  const first = page.items[0];
  const last = page.items[page.items.length - 1];
  return {
    object: 'list',
    data: [...page.items],
    first_id: typeof first?.id === 'string' ? first.id : null,
    last_id: typeof last?.id === 'string' ? last.id : null,
    has_more: page.hasMore,
  };
}
