/** Test helper: the raw answer of one POST, read to the end. */
export type RawAnswer = { status: number; headers: Headers; text: string };

/** Test helper: POSTs a JSON body (or raw text) to the simulator with plain fetch. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Headers every Messages request needs. */
export const ANTHROPIC_HEADERS: Record<string, string> = { 'anthropic-version': '2023-06-01' };
