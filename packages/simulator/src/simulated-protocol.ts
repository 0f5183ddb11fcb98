import type { IncomingHttpHeaders } from 'node:http';
import type { AnswerContext } from './answer-context';
import { ANTHROPIC_INVALID_KEY, authenticateApiKeyHeader, authenticateBearer, OPENAI_INVALID_KEY, requireAnthropicVersion } from './authenticate-request';
import { createChatStream } from './chat-sse';
import { encodeChatJson } from './chat-json';
import { anthropicErrorBody, openAIErrorBody } from './error-envelopes';
import { GEMINI_ENVELOPE, matchGeminiRoute } from './gemini-protocol';
import { encodeMessagesJson } from './messages-json';
import { createMessagesStream } from './messages-sse';
import type { PromptCaching } from './prompt-cache';
import type { RateLimitDecision } from './rate-limit-bucket';
import {
  anthropicRateLimitHeaders,
  anthropicRateLimitRefusal,
  openAIRateLimitHeaders,
  openAIRateLimitRefusal,
  type RateLimitRefusal,
} from './rate-limit-answers';
import { readChatRequest } from './read-chat-request';
import { readMessagesRequest } from './read-messages-request';
import { readResponsesRequest } from './read-responses-request';
import { encodeResponsesJson } from './responses-json';
import { createResponsesStream } from './responses-sse';
import type { SimulatedRequest } from './simulated-request';
import { simulatorError, type SimulatorError } from './simulator-error';
import type { SimulatedStream } from './sse-frame';

/** Everything the request pipeline needs to know about one wire protocol. */
export type SimulatedProtocol = {
  name: 'openai-responses' | 'anthropic-messages' | 'openai-chat' | 'google-gemini';
  /** The header that carries the request id; Google's APIs send none. */
  requestIdHeader: 'x-request-id' | 'request-id' | undefined;
  /** Auth and required headers, checked before the body is read; `url` is the request target (Gemini keys may ride in its query). */
  checkHeaders(headers: IncomingHttpHeaders, apiKey: string | undefined, url: string): SimulatorError | undefined;
  readRequest(body: Record<string, unknown>): SimulatedRequest | SimulatorError;
  /** An answer that needs no generation (Gemini's token count and model list): the body to send, or an error. */
  reply?(body: Record<string, unknown>): unknown;
  encodeJson(context: AnswerContext): unknown;
  createStream(context: AnswerContext): SimulatedStream;
  encodeError(error: SimulatorError, requestId: string): unknown;
  /** What `[[sim:stream-error]]` becomes for a non-streaming request. */
  failure: SimulatorError;
  /** Where the API caches prompts: at `cache_control` breakpoints, or by itself past a length. */
  promptCaching: PromptCaching;
  /** The 401 a revoked key gets. */
  revoked: SimulatorError;
  /** The 429 of a key past its rate limit, with its headers. */
  rateLimitRefusal(decision: RateLimitDecision): RateLimitRefusal;
  /** The rate-limit headers on every other answer to a limited key. */
  rateLimitHeaders(decision: RateLimitDecision): Record<string, string>;
};

const openAIFailure = simulatorError(500, 'The server had an error while processing your request.');

/** What the two OpenAI protocols share: automatic caching, their 401 and their rate-limit words. */
const openAIAccountRules = {
  promptCaching: 'automatic',
  revoked: OPENAI_INVALID_KEY,
  rateLimitRefusal: openAIRateLimitRefusal,
  rateLimitHeaders: openAIRateLimitHeaders,
} as const;

const responsesProtocol: SimulatedProtocol = {
  name: 'openai-responses',
  requestIdHeader: 'x-request-id',
  checkHeaders: authenticateBearer,
  readRequest: readResponsesRequest,
  encodeJson: encodeResponsesJson,
  createStream: createResponsesStream,
  encodeError: openAIErrorBody,
  failure: openAIFailure,
  ...openAIAccountRules,
};

const messagesProtocol: SimulatedProtocol = {
  name: 'anthropic-messages',
  requestIdHeader: 'request-id',
  checkHeaders: (headers, apiKey) => authenticateApiKeyHeader(headers, apiKey) ?? requireAnthropicVersion(headers),
  readRequest: readMessagesRequest,
  encodeJson: encodeMessagesJson,
  createStream: createMessagesStream,
  encodeError: anthropicErrorBody,
  failure: simulatorError(529, 'Overloaded'),
  promptCaching: 'breakpoints',
  revoked: ANTHROPIC_INVALID_KEY,
  rateLimitRefusal: anthropicRateLimitRefusal,
  rateLimitHeaders: anthropicRateLimitHeaders,
};

const chatProtocol: SimulatedProtocol = {
  name: 'openai-chat',
  requestIdHeader: 'x-request-id',
  checkHeaders: authenticateBearer,
  readRequest: readChatRequest,
  encodeJson: encodeChatJson,
  createStream: createChatStream,
  encodeError: openAIErrorBody,
  failure: openAIFailure,
  ...openAIAccountRules,
};

/** The three fixed routes the simulator answers (POST only); the query string is ignored. */
export const PROTOCOL_ROUTES: ReadonlyMap<string, SimulatedProtocol> = new Map([
  ['/v1/responses', responsesProtocol],
  ['/v1/messages', messagesProtocol],
  ['/v1/chat/completions', chatProtocol],
]);

/** A request's route: the protocol that answers it, the key it is counted under in `stats().byPath`, and its one method. */
export type SimulatedRoute = { protocol: SimulatedProtocol; statsKey: string; method: 'GET' | 'POST' };

/** The route of a request target (`pathname` without its query, `url` with it), or undefined for an unknown path. */
export function matchRoute(pathname: string, url: string): SimulatedRoute | undefined {
  const fixed = PROTOCOL_ROUTES.get(pathname);
  if (fixed !== undefined) return { protocol: fixed, statsKey: pathname, method: 'POST' };
  return matchGeminiRoute(pathname, url);
}

/** The protocol whose envelope an unknown path gets: Anthropic under `/v1/messages…`, Google under `/v1beta/` and `/v1/models/`, else OpenAI. */
export function envelopeProtocolFor(pathname: string): SimulatedProtocol {
  if (pathname.startsWith('/v1beta/') || pathname.startsWith('/v1/models/')) return GEMINI_ENVELOPE;
  return pathname.startsWith('/v1/messages') ? messagesProtocol : responsesProtocol;
}
