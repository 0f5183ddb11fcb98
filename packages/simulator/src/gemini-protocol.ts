import { authenticateGoogleKey, GOOGLE_INVALID_KEY } from './authenticate-request';
import { retryAfterSeconds } from './error-envelopes';
import { countGeminiTokens, getGeminiModel, listGeminiModels } from './gemini-models';
import { encodeGeminiJson } from './gemini-json';
import { createGeminiStream, GEMINI_OVERLOADED, type GeminiFraming } from './gemini-stream';
import { googleErrorBody, type GoogleErrorDetail } from './google-error-body';
import { googleRateLimitRefusal } from './rate-limit-answers';
import { readGeminiRequest } from './read-gemini-request';
import type { SimulatedProtocol, SimulatedRoute } from './simulated-protocol';
import type { SimulatorError } from './simulator-error';

/**
 * `/{version}/models/{model}:{method}`, where the version is `v1beta` (Gemini CLI, older SDKs) or
 * `v1` (the default of `@google/genai` 3); a model name has no `/` or `:`.
 */
const METHOD_PATH = /^\/(v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;
const MODELS_PATH = /^\/(v1beta|v1)\/models(?:\/([^/:]+))?$/;

/** The Gemini API's routes (both versions): generation (JSON, SSE or a streamed array), token counts and the model list. */
export function matchGeminiRoute(pathname: string, url: string): SimulatedRoute | undefined {
  const call = METHOD_PATH.exec(pathname);
  if (call !== null) {
    const model = decodeName(call[2] as string);
    if (model === undefined) return undefined;
    const method = call[3] as string;
    const statsKey = `/${call[1]}/models/*:${method}`;
    if (method === 'countTokens') return { protocol: { ...generation(model, undefined), reply: countGeminiTokens }, statsKey, method: 'POST' };
    const framing: GeminiFraming | undefined = method === 'generateContent' ? undefined : new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('alt') === 'sse' ? 'sse' : 'array';
    return { protocol: generation(model, framing), statsKey, method: 'POST' };
  }
  const models = MODELS_PATH.exec(pathname);
  if (models === null) return undefined;
  const model = models[2] === undefined ? undefined : decodeName(models[2]);
  if (models[2] !== undefined && model === undefined) return undefined;
  const reply = model === undefined ? listGeminiModels : () => getGeminiModel(model, models[1] as string);
  return { protocol: { ...generation('', undefined), reply }, statsKey: `/${models[1]}/models${model === undefined ? '' : '/*'}`, method: 'GET' };
}

/** The Gemini protocol for one model, streaming in `framing` (or answering in JSON). */
function generation(model: string, framing: GeminiFraming | undefined): SimulatedProtocol {
  return {
    name: 'google-gemini',
    requestIdHeader: undefined,
    checkHeaders: authenticateGoogleKey,
    readRequest: body => readGeminiRequest(body, { model, stream: framing !== undefined }),
    encodeJson: encodeGeminiJson,
    createStream: context => createGeminiStream(context, framing ?? 'sse'),
    encodeError: error => googleErrorBody(error, quotaDetails(error)),
    failure: GEMINI_OVERLOADED,
    promptCaching: 'automatic',
    revoked: GOOGLE_INVALID_KEY,
    rateLimitRefusal: googleRateLimitRefusal,
    rateLimitHeaders: () => ({}),
  };
}

/** The Gemini envelope of any path under `/v1beta/` or `/v1/models/`, for errors before a route is known. */
export const GEMINI_ENVELOPE: SimulatedProtocol = generation('', undefined);

/** A 429's `QuotaFailure` and `RetryInfo`, as the API details a per-minute quota. */
function quotaDetails(error: SimulatorError): GoogleErrorDetail[] {
  if (error.status !== 429) return [];
  const delay = error.retryDelaySeconds ?? retryAfterSeconds(error.status) ?? 1;
  return [
    {
      '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
      violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel' }],
    },
    { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${delay}s` },
  ];
}

function decodeName(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}
