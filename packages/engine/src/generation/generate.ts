import {
  GatewayError,
  isJSONObject,
  type Codec,
  type JSONObject,
  type EncodeContext,
  type GenerationRequest,
  type TranslationWarning,
} from '@switchyard/core';
import {
  ClientAbortedError,
  getRetryDelayMs,
  type RetryPolicy,
  type UpstreamResponse,
} from '@switchyard/upstream';
import { callUpstream, headerValue, readUpstreamJSON, type UpstreamTarget } from './call-upstream';
import { createPassthroughPipeline } from './create-passthrough-pipeline';
import { createStreamPipeline } from './create-stream-pipeline';
import { formatWarningsHeader } from './format-warnings-header';
import type { GenerationOutput } from './generation-output';
import { createStreamObserver, type StreamObserver } from './stream-observer';
import { openStream, pipeStream } from './stream-session';
import type { AttemptLog } from './attempt-log';

export type GenerateOptions = {
  inbound: Codec;
  /** The client's body as sent: forwarded (with the upstream's model name) when the upstream speaks its protocol. */
  body: unknown;
  request: GenerationRequest;
  warnings: TranslationWarning[];
  /** The route's targets in order, each with the model name it has at that upstream. */
  targets: readonly { upstream: UpstreamTarget; model: string }[];
  policy: RetryPolicy;
  signal: AbortSignal;
  log: AttemptLog;
  createdAt: number;
  /** Waits between attempts; rejects when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Called once a streamed answer has ended (or failed, or the client left). */
  onStreamEnd(observer: StreamObserver, error: unknown): void;
};

/**
 * Tries the route's targets in order, at most `policy.maxAttempts` times in all, retrying only
 * before the commit point and only failures the policy allows. Returns the translated answer.
 */
export async function generate(options: GenerateOptions): Promise<GenerationOutput> {
  const { request, policy, signal, log } = options;
  const context: EncodeContext = { request, createdAt: options.createdAt };
  for (let attempt = 1; ; attempt++) {
    const { upstream: target, model } = options.targets[Math.min(attempt - 1, options.targets.length - 1)]!;
    log.attempts = attempt;
    log.target = target;
    try {
      const passthrough = isPassthrough(options.inbound, target.codec, options.body);
      const encoded = passthrough
        ? { value: { ...(options.body as JSONObject), model }, warnings: [] }
        : target.codec.encodeRequest(request, model);
      const headers = formatWarningsHeader([
        ...options.warnings,
        ...encoded.warnings,
        ...droppedOptions(options.inbound, target.codec, request),
      ]);
      const response = await callUpstream(target, JSON.stringify(encoded.value), signal);
      log.upstreamRequestId = headerValue(response.headers['x-request-id'] ?? response.headers['request-id']);
      const answer = { options, target, response, passthrough, context, headers };
      return request.stream ? await streamAnswer(answer) : await jsonAnswer(answer);
    } catch (error) {
      if (error instanceof ClientAbortedError) throw error;
      const failure = GatewayError.from(error);
      // A target without an account fails the same way every time: only another target can help, at once.
      if (failure.code === 'NO_ACCOUNT_AVAILABLE') {
        if (attempt >= Math.min(options.targets.length, policy.maxAttempts)) throw failure;
        continue;
      }
      const delay = getRetryDelayMs({ error: failure, attempt, policy });
      if (delay === undefined) throw failure;
      await options.sleep(delay, signal).catch(cause => {
        throw new ClientAbortedError(cause);
      });
    }
  }
}

/** Warnings for the client protocol's own fields when the upstream speaks another protocol. */
function droppedOptions(inbound: Codec, outbound: Codec, request: GenerationRequest): TranslationWarning[] {
  if (outbound.protocol === inbound.protocol) return [];
  const own = request.providerOptions?.[inbound.protocol];
  return own && inbound.describeDroppedOptions ? inbound.describeDroppedOptions(own) : [];
}

/** What one successful upstream call needs to become the client's answer. */
type UpstreamAnswer = {
  options: GenerateOptions;
  target: UpstreamTarget;
  response: UpstreamResponse;
  passthrough: boolean;
  context: EncodeContext;
  headers: Record<string, string>;
};

/** The upstream's JSON answer for the client: translated, or (same protocol) as sent under the client's model ID. */
async function jsonAnswer({
  options,
  target,
  response,
  passthrough,
  context,
  headers,
}: UpstreamAnswer): Promise<GenerationOutput> {
  const json = await readUpstreamJSON(response);
  const decoded = target.codec.decodeResponse(json);
  options.log.finishReason = decoded.finishReason;
  options.log.usage = decoded.usage;
  options.log.upstreamId = decoded.id;
  const body =
    passthrough && isJSONObject(json)
      ? { ...json, model: options.request.model }
      : options.inbound.encodeResponse(decoded, context);
  return { kind: 'json', headers, body };
}

/** The upstream's stream, read up to its commit point, ready to pipe to the client. */
async function streamAnswer({
  options,
  target,
  response,
  passthrough,
  context,
  headers,
}: UpstreamAnswer): Promise<GenerationOutput> {
  const { signal } = options;
  const pipeline = passthrough
    ? createPassthroughPipeline(
        target.codec.createStreamDecoder(),
        target.codec.createPassthroughStream!(options.request.model),
      )
    : createStreamPipeline(target.codec, options.inbound, context);
  const opened = await openStream(response, pipeline, signal);
  const observer = createStreamObserver();
  return {
    kind: 'stream',
    headers,
    pipe: sink =>
      pipeStream(opened, pipeline, sink, observer, signal).then(
        () => options.onStreamEnd(observer, undefined),
        error => {
          options.onStreamEnd(observer, error);
          if (!(error instanceof ClientAbortedError)) throw error;
        },
      ),
  };
}

/**
 * The pass-through fast path: the upstream speaks the client's protocol, so the client's own body
 * goes upstream (unknown fields, signatures and cache prefixes untouched, only `model` replaced) and
 * the upstream's frames come back as they are, watched for usage and the terminal event.
 */
function isPassthrough(inbound: Codec, outbound: Codec, body: unknown): boolean {
  return (
    outbound.protocol === inbound.protocol &&
    outbound.createPassthroughStream !== undefined &&
    isJSONObject(body)
  );
}
