import type { Attributes } from '@opentelemetry/api';
import type { UsageRecord } from '@signalbox/engine';

/**
 * Attribute names. The `gen_ai.*` ones are the OpenTelemetry GenAI semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/), still marked "development"
 * there, so they are spelled out here rather than imported from an unstable entry point; the
 * `signalbox.*` ones are the gateway's own.
 */
export const ATTRIBUTE = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  /** The name `gen_ai.provider.name` replaced; backends built on older conventions still read it. */
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  errorType: 'error.type',
  httpStatus: 'http.response.status_code',
  requestId: 'signalbox.request_id',
  interface: 'signalbox.interface',
  route: 'signalbox.route',
  upstream: 'signalbox.upstream',
  credential: 'signalbox.upstream.credential',
  attempt: 'signalbox.attempt',
  attempts: 'signalbox.attempts',
  failover: 'signalbox.failover',
  retryReason: 'signalbox.retry_reason',
  retried: 'signalbox.retried',
  outcome: 'signalbox.outcome',
  errorCode: 'signalbox.error.code',
  estimatedUsage: 'signalbox.usage.estimated',
} as const;

/** Every exchange is a chat-style generation (compaction too: the model writes a summary). */
export const OPERATION = 'chat';

/**
 * `gen_ai.provider.name` and the older `gen_ai.system`, which carry the same value: the upstream's
 * vendor as its codec's descriptor names it (`openai`, `anthropic`).
 */
export function providerAttributes(vendor: string): Attributes {
  return { [ATTRIBUTE.providerName]: vendor, [ATTRIBUTE.system]: vendor };
}

/**
 * What a settled request's record tells a span: the response model, token counts and finish
 * reason. Only counts, names and codes: never text from the prompt or the answer.
 * `gen_ai.response.model` is the model ID the gateway sent upstream (the record keeps that one).
 */
export function resultAttributes(record: UsageRecord): Attributes {
  const attributes: Attributes = {};
  if (record.upstreamModel !== undefined) attributes[ATTRIBUTE.responseModel] = record.upstreamModel;
  if (record.usage?.inputTokens !== undefined) attributes[ATTRIBUTE.inputTokens] = record.usage.inputTokens;
  if (record.usage?.outputTokens !== undefined) attributes[ATTRIBUTE.outputTokens] = record.usage.outputTokens;
  if (record.usage !== undefined && record.estimated) attributes[ATTRIBUTE.estimatedUsage] = true;
  if (record.finishReason !== undefined) attributes[ATTRIBUTE.finishReasons] = [record.finishReason.unified];
  return attributes;
}

/**
 * Whether a request's ending is a failure for its span's status: a 5xx answer, a stream that
 * failed after it began (`failed`) or that the gateway's shutdown ended (`interrupted`). A refusal
 * of the client's own making (a 4xx: bad key, bad body, a limit) and a client that left are not the
 * server's failure, as the HTTP conventions have it
 * (https://opentelemetry.io/docs/specs/semconv/http/http-spans/#status).
 */
export function isFailure(record: UsageRecord): boolean {
  return record.status >= 500 || record.outcome === 'failed' || record.outcome === 'interrupted';
}
