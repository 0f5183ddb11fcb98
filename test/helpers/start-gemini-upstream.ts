import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen-on-loopback';
import { readRequestText } from './read-request-text';

type Part = { text?: string; thought?: boolean; thoughtSignature?: string; functionCall?: { id?: string; name: string; args?: object }; functionResponse?: { id?: string; name: string; response?: Record<string, unknown> } };
type Content = { role?: string; parts?: Part[] };
type Body = {
  contents?: Content[];
  tools?: { functionDeclarations?: { name: string; parameters?: { required?: string[] }; parametersJsonSchema?: { required?: string[] } }[] }[];
  generationConfig?: { thinkingConfig?: { includeThoughts?: boolean } };
  safetySettings?: unknown[];
};

export type GeminiUpstream = {
  url: string;
  /** Each call as received: its model, method, query, key header, `Authorization` and body. */
  calls: { model: string; method: string; query: string; key: string | undefined; authorization: string | undefined; body: Body }[];
  /** Every thought signature it issued. */
  issued: Set<string>;
  close(): Promise<void>;
};

/** The value Google documents for a call Gemini did not make: accepted without a check. */
const SKIP_VALIDATOR = 'skip_thought_signature_validator';
const PATH = /^(?:\/v1beta|\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/google)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/**
 * A small Gemini API on 127.0.0.1 (`generateContent`, `streamGenerateContent?alt=sse`), also at
 * Vertex AI's publisher path: it checks the key (`x-goog-api-key`, or a bearer token when `bearer`
 * says whether one is valid), answers an echo of the last user text, calls the first declared
 * function (with a thought signature, and a thought when asked for thoughts) until a function
 * response comes back, and refuses, as Gemini 3 does, a history whose latest function call lacks a
 * signature (one it issued, or Google's marker for calls it did not make) or carries a forged one. Usage has thoughts and cached tokens.
 */
export async function startGeminiUpstream(options: { key?: string; bearer?: (token: string) => boolean }): Promise<GeminiUpstream> {
  const calls: GeminiUpstream['calls'] = [];
  const issued = new Set<string>();
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://gemini.local');
    const match = PATH.exec(url.pathname);
    if (!match || request.method !== 'POST') return refuse(response, 404, 'NOT_FOUND', 'Not found.');
    const key = request.headers['x-goog-api-key'] as string | undefined;
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const allowed = options.bearer ? token !== undefined && options.bearer(token) : key === options.key;
    if (!allowed) return refuse(response, options.bearer ? 401 : 400, options.bearer ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    const body = JSON.parse(await readRequestText(request)) as Body;
    const [, model, method] = match as unknown as [string, string, string];
    calls.push({ model, method, query: url.search, key, authorization: request.headers.authorization, body });
    const refusal = checkSignatures(body.contents ?? [], issued);
    if (refusal) return refuse(response, 400, 'INVALID_ARGUMENT', refusal);
    const parts = answer(body, issued, calls.length);
    const usage = { promptTokenCount: 120, candidatesTokenCount: 9, thoughtsTokenCount: 6, cachedContentTokenCount: 64, totalTokenCount: 135 };
    const chunk = (chunkParts: Part[], last: boolean) => ({
      candidates: [{ content: { role: 'model', parts: chunkParts }, index: 0, ...(last && { finishReason: 'STOP' }) }],
      ...(last && { usageMetadata: usage }),
      modelVersion: model,
      responseId: `resp${calls.length}`,
    });
    if (method === 'generateContent') {
      response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(chunk(parts, true)));
      return;
    }
    if (url.searchParams.get('alt') !== 'sse') return refuse(response, 400, 'INVALID_ARGUMENT', 'This emulator streams only with alt=sse.');
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const pieces = parts.flatMap(part => (part.text !== undefined && !part.thought ? splitText(part) : [part]));
    pieces.forEach((piece, index) => response.write(`data: ${JSON.stringify(chunk([piece], index === pieces.length - 1))}\r\n\r\n`));
    response.end();
  }
  const server = await listenOnLoopback((request, response) => void serve(request, response).catch(() => response.destroy()));
  return { url: server.url, calls, issued, close: () => server.close() };
}

/** The model's parts: a call of the first declared function until a function response comes back, then an echo. */
function answer(body: Body, issued: Set<string>, serial: number): Part[] {
  const last = body.contents?.at(-1)?.parts ?? [];
  const declared = body.tools?.flatMap(tool => tool.functionDeclarations ?? [])[0];
  const result = last.find(part => part.functionResponse)?.functionResponse;
  const signature = `sig-${serial}`;
  issued.add(signature);
  if (declared && !result) {
    const required = (declared.parametersJsonSchema ?? declared.parameters)?.required ?? [];
    const args = Object.fromEntries(required.map(name => [name, 'Oslo']));
    const thought = body.generationConfig?.thinkingConfig?.includeThoughts ? [{ text: 'Deciding which tool to call.', thought: true }] : [];
    return [...thought, { functionCall: { name: declared.name, args }, thoughtSignature: signature }];
  }
  const text = result ? `Result: ${JSON.stringify(result.response)}` : `echo: ${last.map(part => part.text ?? '').join('')}`;
  return [{ text, thoughtSignature: signature }];
}

/** Gemini 3's rule: the latest model turn with a function call carries, on its first call, a signature this model issued. */
function checkSignatures(contents: readonly Content[], issued: ReadonlySet<string>): string | undefined {
  for (const content of contents) {
    for (const part of content.parts ?? []) if (part.thoughtSignature && part.thoughtSignature !== SKIP_VALIDATOR && !issued.has(part.thoughtSignature)) return 'Corrupted thought signature.';
  }
  const latest = [...contents].reverse().find(content => content.role === 'model' && content.parts?.some(part => part.functionCall));
  const first = latest?.parts?.find(part => part.functionCall);
  if (first && !first.thoughtSignature) return `Function call is missing a thought_signature in functionCall parts.`;
  return undefined;
}

function splitText(part: Part): Part[] {
  const words = part.text!.split(/(?<= )/);
  return words.map((word, index) => (index === 0 && part.thoughtSignature ? { text: word, thoughtSignature: part.thoughtSignature } : { text: word }));
}

function refuse(response: ServerResponse, code: number, status: string, message: string): void {
  response.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify({ error: { code, message, status } }));
}
