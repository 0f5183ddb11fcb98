import { createSimulator, type Simulator } from '@signalbox/simulator';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { emulatedTokenCount } from './emulated-token-count';
import { listenOnLoopback } from './listen-on-loopback';
import { readRequestText } from './read-request-text';

export type VertexEmulator = {
  /** A location's base URL, as `https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}` would be. */
  baseURL: string;
  simulator: Simulator;
  /** Each call's bearer token as checked, in order. */
  tokens: { value: string; accepted: boolean }[];
  /**
   * Each served call: its publisher (`anthropic`, `google`), the model in its URL, its method
   * (`rawPredict`, `streamRawPredict`; `generateContent`, `streamGenerateContent`, `countTokens`),
   * and for Anthropic models the body's `anthropic_version`, `stream` and `anthropic-beta` header.
   */
  served: { publisher: 'anthropic' | 'google'; model: string; method: string; anthropicVersion: unknown; stream: unknown; beta: string | undefined }[];
  close(): Promise<void>;
};

export type VertexEmulatorOptions = {
  project: string;
  region: string;
  /** Whether a bearer token is a valid access token (issued by the token endpoint, unexpired). */
  verifyToken(token: string): boolean;
  /** Whether the token's account holds `aiplatform.endpoints.predict` on the project (default yes); without it, 403 PERMISSION_DENIED. */
  permitted?: boolean;
  /** Models `count-tokens:rawPredict` refuses to count (400 INVALID_ARGUMENT). */
  uncountableModels?: readonly string[];
};

const MODEL_PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;
/** Google's models answer on v1 and on v1beta1, the Vertex AI version `@google/genai` 3 calls by default. */
const GEMINI_PATH = /^\/(?:v1|v1beta1)\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;
const UNAUTHENTICATED = googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');

/**
 * Vertex AI's publisher-model endpoints for Anthropic and Google models on 127.0.0.1, for one
 * project and region. A call must name them and a model, carry a valid bearer token, and for an
 * Anthropic model send no query and a Messages body with `anthropic_version: "vertex-2023-10-16"`
 * and no `model`, else Google's error envelope; behind those checks the simulator answers, in the
 * Messages protocol for Anthropic models and in Gemini's for Google's (whose streams take `alt=sse`).
 * `count-tokens:rawPredict` (the model named in its body) answers `{"input_tokens": N}` by
 * `emulatedTokenCount`.
 */
export async function startVertexEmulator(options: VertexEmulatorOptions): Promise<VertexEmulator> {
  const simulator = createSimulator({ tokenDelayMs: 0 });
  const tokens: VertexEmulator['tokens'] = [];
  const served: VertexEmulator['served'] = [];
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://vertex.local');
    const gemini = GEMINI_PATH.exec(url.pathname);
    const match = gemini ?? MODEL_PATH.exec(url.pathname);
    if (!match || match[1] !== options.project || match[2] !== options.region) return refuse(response, googleError(404, 'NOT_FOUND', 'Publisher model not found.'));
    // Google's APIs bind query parameters to fields of the request message: `alt` (the response
    // format) on the Gemini methods, none on rawPredict.
    const unbound = [...url.searchParams.keys()].find(name => gemini === null || name !== 'alt');
    if (unbound !== undefined) return refuse(response, googleError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${unbound.slice(0, 40)}": Cannot bind query parameter.`));
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const accepted = token !== undefined && options.verifyToken(token);
    if (token !== undefined) tokens.push({ value: token, accepted });
    if (!accepted) return refuse(response, UNAUTHENTICATED);
    const publisher = gemini === null ? 'anthropic' : 'google';
    if (options.permitted === false) return refuse(response, permissionDenied(publisher, match[1]!, match[2]!, match[3]!));
    if (gemini !== null) return serveGemini(request, response, gemini[3]!, gemini[4]!, url.search);
    const body = JSON.parse(await readRequestText(request)) as Record<string, unknown>;
    if (match[3] === 'count-tokens' && match[4] === 'rawPredict') return countTokens(body, response, options);
    if (body['anthropic_version'] !== 'vertex-2023-10-16') return refuse(response, googleError(400, 'INVALID_ARGUMENT', 'anthropic_version: Input should be vertex-2023-10-16'));
    if ('model' in body) return refuse(response, googleError(400, 'INVALID_ARGUMENT', 'model: Extra inputs are not permitted'));
    const [, , , model, method] = match as unknown as [string, string, string, string, string];
    const beta = request.headers['anthropic-beta'];
    served.push({ publisher, model, method, anthropicVersion: body['anthropic_version'], stream: body['stream'], beta: typeof beta === 'string' ? beta : undefined });
    delete body['anthropic_version'];
    request.url = '/v1/messages';
    delete request.headers.authorization;
    request.headers['x-api-key'] = 'vertex';
    Object.assign(request, { body: { ...body, model } });
    simulator.handler(request, response);
  }
  /** A Gemini method: the simulator's Gemini route answers it, on the emulator's own key. */
  function serveGemini(request: IncomingMessage, response: ServerResponse, model: string, method: string, search: string): void {
    served.push({ publisher: 'google', model, method, anthropicVersion: undefined, stream: undefined, beta: undefined });
    request.url = `/v1beta/models/${model}:${method}${search}`;
    delete request.headers.authorization;
    request.headers['x-goog-api-key'] = 'vertex';
    simulator.handler(request, response);
  }
  const server = await listenOnLoopback((request, response) => {
    void serve(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  return { baseURL: `${server.url}/v1/projects/${options.project}/locations/${options.region}`, simulator, tokens, served, close: server.close };
}

/** `count-tokens:rawPredict`: a Messages token-count body with `anthropic_version` and the model it counts for. */
function countTokens(body: Record<string, unknown>, response: ServerResponse, options: VertexEmulatorOptions): void {
  const { model, messages } = body;
  if (body['anthropic_version'] !== 'vertex-2023-10-16' || typeof model !== 'string' || !Array.isArray(messages)) {
    return refuse(response, googleError(400, 'INVALID_ARGUMENT', 'Invalid count-tokens request.'));
  }
  if (options.uncountableModels?.includes(model)) return refuse(response, googleError(400, 'INVALID_ARGUMENT', `Token counting is not supported for ${model}.`));
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: emulatedTokenCount({ system: body['system'], messages }) }));
}

/** Vertex AI's refusal of an account without the predict permission on the model. */
function permissionDenied(publisher: string, project: string, region: string, model: string): GoogleError {
  const resource = `projects/${project}/locations/${region}/publishers/${publisher}/models/${model}`;
  return googleError(403, 'PERMISSION_DENIED', `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`);
}

type GoogleError = { status: number; body: { error: { code: number; message: string; status: string } } };

/** Google's JSON error envelope. */
function googleError(code: number, status: string, message: string): GoogleError {
  return { status: code, body: { error: { code, message, status } } };
}

function refuse(response: ServerResponse, error: GoogleError): void {
  response.writeHead(error.status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(error.body));
}
