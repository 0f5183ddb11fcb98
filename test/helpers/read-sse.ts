import type { SSEMessage } from '@signalbox/core';
import { decodeSSEChunks } from '@signalbox/sse/testing';

/** A raw streaming POST over loopback: status, headers and the exact SSE messages received. */
export async function postForSSE(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: Headers; messages: SSEMessage[]; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    headers: response.headers,
    messages: decodeSSEChunks([bytes]),
    text: new TextDecoder().decode(bytes),
  };
}

/** Auth headers for each interface. */
export const authHeaders = {
  responses: (key: string) => ({ authorization: `Bearer ${key}` }),
  chat: (key: string) => ({ authorization: `Bearer ${key}` }),
  messages: (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
};

/** A Gemini client's key header (Google's SDKs send `apiKey` as `x-goog-api-key`). */
export const geminiAuthHeaders = (key: string) => ({ 'x-goog-api-key': key });
