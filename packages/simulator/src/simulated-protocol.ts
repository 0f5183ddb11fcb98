import type { IncomingHttpHeaders } from 'node:http';
import type { AnswerContext } from './answer-context';
import { authenticateApiKeyHeader, authenticateBearer, requireAnthropicVersion } from './authenticate-request';
import { createChatStream } from './chat-sse';
import { encodeChatJson } from './chat-json';
import { anthropicErrorBody, openAIErrorBody } from './error-envelopes';
import { encodeMessagesJson } from './messages-json';
import { createMessagesStream } from './messages-sse';
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
  name: 'openai-responses' | 'anthropic-messages' | 'openai-chat';
  requestIdHeader: 'x-request-id' | 'request-id';
  /** Auth and required headers, checked before the body is read. */
  checkHeaders(headers: IncomingHttpHeaders, apiKey: string | undefined): SimulatorError | undefined;
  readRequest(body: Record<string, unknown>): SimulatedRequest | SimulatorError;
  encodeJson(context: AnswerContext): unknown;
  createStream(context: AnswerContext): SimulatedStream;
  encodeError(error: SimulatorError, requestId: string): unknown;
  /** What `[[sim:stream-error]]` becomes for a non-streaming request. */
  failure: SimulatorError;
};

const openAIFailure = simulatorError(500, 'The server had an error while processing your request.');

const responsesProtocol: SimulatedProtocol = {
  name: 'openai-responses',
  requestIdHeader: 'x-request-id',
  checkHeaders: authenticateBearer,
  readRequest: readResponsesRequest,
  encodeJson: encodeResponsesJson,
  createStream: createResponsesStream,
  encodeError: openAIErrorBody,
  failure: openAIFailure,
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
};

/** The three routes the simulator answers (POST only); the query string is ignored. */
export const PROTOCOL_ROUTES: ReadonlyMap<string, SimulatedProtocol> = new Map([
  ['/v1/responses', responsesProtocol],
  ['/v1/messages', messagesProtocol],
  ['/v1/chat/completions', chatProtocol],
]);

/** The protocol whose envelope an unknown path gets: Anthropic under `/v1/messages…`, else OpenAI. */
export function envelopeProtocolFor(pathname: string): SimulatedProtocol {
  return pathname.startsWith('/v1/messages') ? messagesProtocol : responsesProtocol;
}
