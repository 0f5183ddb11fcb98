import type { StoredResponse } from '@signalbox/accounts';
import type { Protocol, SSEMessage } from '@signalbox/core';

/**
 * A connection's own memory of its latest response kept with `store: false` (Responses' WebSocket
 * mode), so the next request may name it by `previous_response_id` and send only the new items. It
 * holds the whole conversation (no earlier link), for the caller's account only.
 */
export type ConnectionResponses = {
  get(accountId: string, id: string): StoredResponse | undefined;
  keep(record: StoredResponse): void;
};

/**
 * How an exchange's stream reaches a transport other than an HTTP response (a WebSocket): the
 * protocol its record carries, each stream message's text, and the connection's own responses.
 */
export type ExchangeTransport = {
  recordedProtocol: Protocol;
  /** The text of one stream message as the transport sends it (an HTTP response: the SSE frame). */
  formatFrame(message: SSEMessage): string;
  connectionResponses?: ConnectionResponses;
};
