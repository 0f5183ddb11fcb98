import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnswerContext } from './answer-context';
import { createId } from './create-id';
import type { CredentialAdmission, CredentialRegistry } from './credential-registry';
import { retryAfterSeconds } from './error-envelopes';
import { generateAnswer } from './generate-answer';
import { CONTROL_PATH_PREFIX, handleControlRequest } from './handle-control-request';
import type { PromptCache } from './prompt-cache';
import type { RateLimitRefusal } from './rate-limit-answers';
import { readCredential } from './read-credential';
import { readRequestBody } from './read-request-body';
import { NO_DIRECTIVES, readScenarioDirectives, stripScenarioDirectives, type ScenarioDirectives } from './scenario-directives';
import { envelopeProtocolFor, matchRoute, type SimulatedProtocol, type SimulatedRoute } from './simulated-protocol';
import type { SimulatedRequest } from './simulated-request';
import { isSimulatorError, simulatorError, type SimulatorError } from './simulator-error';
import type { ResolvedSimulatorOptions } from './simulator-options';
import type { StatsCounter } from './simulator-stats';
import { trackExchange, type Exchange } from './track-exchange';
import { writeCutJson, writeJson } from './write-json';
import { writeSSE, type StreamScenario } from './write-sse';

/** A plain Node request listener, mountable on any `http.Server` (or Express app). */
export type SimulatorHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** Called with each request body that parsed as a JSON object, before it is answered (the request log). */
export type BodyObserver = (request: IncomingMessage, body: Record<string, unknown>) => void;

/** What every request of one simulator shares: its options, counters, per-key state and prompt cache. */
export type SimulatorState = {
  options: ResolvedSimulatorOptions;
  stats: StatsCounter;
  credentials: CredentialRegistry;
  promptCache: PromptCache;
  observeBody?: BodyObserver;
};

/** One request on a protocol path, once its body is read: where to answer and on whose key. */
type Turn = { exchange: Exchange; protocol: SimulatedProtocol; request: SimulatedRequest; requestId: string; credential: string };

/** Builds the request listener: route, check headers and key, read the body, then answer or fail as directed. */
export function createRequestHandler(state: SimulatorState): SimulatorHandler {
  return function simulatorHandler(request, response) {
    const pathname = (request.url ?? '/').split('?', 1)[0] ?? '/';
    const route = matchRoute(pathname, request.url ?? '/');
    const exchange = trackExchange(request, response, state.stats, route?.statsKey ?? 'other');
    const handled = pathname.startsWith(CONTROL_PATH_PREFIX)
      ? handleControlRequest(exchange, pathname, { ...state, maxBodyBytes: state.options.maxBodyBytes })
      : handleExchange(exchange, pathname, route, state);
    handled.catch(() => {
      // A bug must not take the server down: answer 500 if still possible, else drop the connection.
      if (!response.headersSent) writeJson(exchange, 500, { error: { message: 'Simulator failure', type: 'server_error', param: null, code: null } });
      else response.destroy();
    });
  };
}

async function handleExchange(exchange: Exchange, pathname: string, route: SimulatedRoute | undefined, state: SimulatorState): Promise<void> {
  const envelope = route?.protocol ?? envelopeProtocolFor(pathname);
  const requestId = createId('req_');
  if (envelope.requestIdHeader !== undefined) exchange.response.setHeader(envelope.requestIdHeader, requestId);
  const fail = (error: SimulatorError, headers?: Record<string, string>) => writeError(exchange, envelope, error, requestId, headers);
  if (route === undefined) return fail(simulatorError(404, `Unknown path: ${exchange.request.method} ${pathname}`));
  const { protocol } = route;
  if (isWebSocketUpgrade(exchange.request)) {
    // Codex tries a WebSocket first; 426 tells it to use HTTP streaming at once (a 404/405 makes it retry).
    exchange.response.setHeader('upgrade', 'websocket');
    return fail(simulatorError(426, `WebSocket mode is not offered on ${pathname}; send POST ${pathname} (streaming over HTTP is supported).`));
  }
  if (exchange.request.method !== route.method) {
    exchange.response.setHeader('allow', route.method);
    return fail(simulatorError(405, `Method ${exchange.request.method} is not allowed on ${pathname}; use ${route.method}.`));
  }
  const url = exchange.request.url ?? '/';
  const headerError = protocol.checkHeaders(exchange.request.headers, state.options.apiKey, url);
  if (headerError !== undefined) return fail(headerError);
  const credential = readCredential(exchange.request.headers, url);
  const refusal = applyAdmission(exchange, protocol, state.credentials.admit(credential));
  if (refusal !== undefined) return fail(refusal.error, refusal.headers);
  const body = route.method === 'GET' ? ({ ok: true, body: {} } as const) : await readRequestBody(exchange.request, state.options.maxBodyBytes);
  if (!body.ok) return fail(simulatorError(body.status, body.message));
  state.observeBody?.(exchange.request, body.body);
  if (protocol.reply !== undefined) return replyDirectly(exchange, protocol.reply(body.body), fail);
  const request = protocol.readRequest(body.body);
  if (isSimulatorError(request)) return fail(request);
  return answer({ exchange, protocol, request, requestId, credential }, state, fail);
}

/** The key's verdict: the refusal to send, or undefined after putting its rate-limit headers on the answer. */
function applyAdmission(exchange: Exchange, protocol: SimulatedProtocol, admission: CredentialAdmission): RateLimitRefusal | undefined {
  if (admission.outcome === 'revoked') return { error: protocol.revoked, headers: {} };
  if (admission.outcome === 'rate-limited') return protocol.rateLimitRefusal(admission.decision);
  if (admission.decision === undefined) return undefined;
  for (const [name, value] of Object.entries(protocol.rateLimitHeaders(admission.decision))) exchange.response.setHeader(name, value);
  return undefined;
}

/** Generates the answer (or the failure the directives ask for), with the prompt cache's part in its usage. */
async function answer(turn: Turn, state: SimulatorState, fail: (error: SimulatorError) => void): Promise<void> {
  const { exchange, protocol, request } = turn;
  const options = state.options;
  const directives = options.scenarioDirectives
    ? readScenarioDirectives([request.lastUserText, ...request.trailingToolResults])
    : NO_DIRECTIVES;
  if (directives.status !== undefined) {
    const prompt = directives.echoPrompt ? stripScenarioDirectives(request.lastUserText) : undefined;
    return fail(statusError(directives.status, prompt));
  }
  if (directives.hang) return; // never answer; the exchange counts the abort when the client leaves
  const plan = generateAnswer(request, {
    answerTokens: directives.outputTokens ?? options.defaultOutputTokens,
    reasoningTokens: options.reasoningTokens,
    ...(directives.toolRounds !== undefined && { toolRounds: directives.toolRounds }),
  });
  const cache = state.promptCache.apply(request, turn.credential, protocol.promptCaching);
  state.credentials.recordAnswer(turn.credential, plan.usage.inputTokens, cache);
  const context: AnswerContext = { request, plan, createdAt: Math.floor(Date.now() / 1000), requestId: turn.requestId, cache, directedFinish: directives.finish };
  const tokenDelayMs = directives.slowMs ?? options.tokenDelayMs;
  if (request.stream) {
    const pacing = { tokenDelayMs, firstTokenDelayMs: options.firstTokenDelayMs };
    return writeSSE(exchange, protocol.createStream(context), pacing, streamScenario(directives));
  }
  const delay = options.firstTokenDelayMs + tokenDelayMs * plan.usage.outputTokens;
  if (delay > 0) await exchange.wait(delay);
  if (directives.streamError) return fail(protocol.failure);
  if (directives.cut) return writeCutJson(exchange, protocol.encodeJson(context));
  writeJson(exchange, 200, protocol.encodeJson(context));
}

/** Sends an answer that needed no generation (a token count, a model list), or its error. */
function replyDirectly(exchange: Exchange, reply: unknown, fail: (error: SimulatorError) => void): void {
  if (isSimulatorError(reply)) return fail(reply);
  writeJson(exchange, 200, reply);
}

function isWebSocketUpgrade(request: Exchange['request']): boolean {
  return request.method === 'GET' && (request.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

function writeError(exchange: Exchange, protocol: SimulatedProtocol, error: SimulatorError, requestId: string, extraHeaders: Record<string, string> = {}): void {
  const retryAfter = retryAfterSeconds(error.status);
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  writeJson(exchange, error.status, protocol.encodeError(error, requestId), { ...headers, ...extraHeaders });
}

/** The error a `[[sim:status=NNN]]` marker asks for; with `prompt`, its message quotes it. */
function statusError(status: number, prompt: string | undefined): SimulatorError {
  const quote = prompt === undefined ? '' : ` The request was: "${prompt}"`;
  if (status === 529) return simulatorError(529, `Overloaded.${quote}`);
  return simulatorError(status, `Simulated HTTP ${status} (requested by [[sim:status=${status}]]).${quote}`);
}

function streamScenario(directives: ScenarioDirectives): StreamScenario {
  if (directives.cut) return 'cut';
  return directives.streamError ? 'error' : 'none';
}
