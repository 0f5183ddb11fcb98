/** One request an SDK sent to the gateway, as seen by the `fetch` it was given. */
export type RecordedRequest = { method: string; url: string; body: unknown };

export type RecordingFetch = { fetch: typeof globalThis.fetch; requests: RecordedRequest[] };

/**
 * A `fetch` for the SDKs that take one: it remembers every request's method, URL and JSON body, then
 * sends it on. It refuses any host but 127.0.0.1, so a test can never reach the network.
 */
export function createRecordingFetch(): RecordingFetch {
  const requests: RecordedRequest[] = [];
  const send = globalThis.fetch;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    assertLoopback(request.url);
    const text = request.body === null ? '' : await request.clone().text();
    requests.push({
      method: request.method,
      url: request.url,
      body: text === '' ? undefined : JSON.parse(text),
    });
    return send(request);
  };
  return { fetch, requests };
}

/**
 * Replaces the global `fetch` with one that refuses every host but 127.0.0.1 and remembers what it
 * refused: a net under SDKs that could call home on their own (tracing, telemetry, model lists).
 * `restore()` puts the real `fetch` back and returns the refused URLs.
 */
export function forbidRemoteFetch(): { restore(): string[] } {
  const refused: string[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = requestURL(input);
    if (!isLoopback(url)) {
      refused.push(url);
      throw new Error(`Test tried to reach ${url}; only 127.0.0.1 is allowed`);
    }
    return original(input, init);
  };
  return {
    restore() {
      globalThis.fetch = original;
      return refused;
    },
  };
}

function requestURL(input: Parameters<typeof globalThis.fetch>[0]): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

function assertLoopback(url: string): void {
  if (!isLoopback(url)) throw new Error(`Test tried to reach ${url}; only 127.0.0.1 is allowed`);
}

function isLoopback(url: string): boolean {
  return new URL(url).hostname === '127.0.0.1';
}

/**
 * A one-tool loop's requests: two POSTs to `path`, both streamed or both not, the tool's `report`
 * absent from the first and sent back in the second.
 */
export function expectToolRoundTrip(requests: readonly RecordedRequest[], path: string, stream: boolean, report: string): void {
  expect(requests.map(request => `${request.method} ${new URL(request.url).pathname}`)).toEqual([`POST ${path}`, `POST ${path}`]);
  expect(requests.map(request => Boolean((request.body as { stream?: boolean }).stream))).toEqual([stream, stream]);
  expect(JSON.stringify(requests[0]?.body)).not.toContain(report);
  expect(JSON.stringify(requests[1]?.body)).toContain(report);
}
