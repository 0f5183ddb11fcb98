import { isJSONObject, unfinishedAnswerError, type EncodeContext } from '@signalbox/core';
import type { UpstreamResponse } from '@signalbox/upstream';
import type { AttemptOptions } from './attempt-targets';
import { readUpstreamJSON } from './call-upstream';
import { abandonStream, pipeCommittedStream, readToCommitPoint } from './commit-point';
import { createPassthroughPipeline } from './create-passthrough-pipeline';
import { createStreamPipeline } from './create-stream-pipeline';
import type { UpstreamAnswer } from './generation-output';
import type { UpstreamTarget } from './upstream-target';

/** What one successful upstream call needs to become the client's answer. */
export type UpstreamRead = {
  options: AttemptOptions;
  target: UpstreamTarget;
  response: UpstreamResponse;
  passthrough: boolean;
  headers: Record<string, string>;
};

/** The upstream's answer for the client: its JSON body, or its stream read up to the commit point. */
export function readUpstreamAnswer(read: UpstreamRead): Promise<UpstreamAnswer> {
  return read.options.request.stream ? streamAnswer(read) : jsonAnswer(read);
}

function encodeContext(options: AttemptOptions): EncodeContext {
  return { request: options.request, createdAt: options.createdAt };
}

/**
 * The upstream's JSON answer for the client: translated, or (same protocol) as sent under the
 * client's model ID. An answer its upstream left unfinished goes out only as sent: translated, it is
 * refused (`unfinishedAnswerError`).
 */
async function jsonAnswer({ options, target, response, passthrough, headers }: UpstreamRead): Promise<UpstreamAnswer> {
  const json = await readUpstreamJSON(response);
  const decoded = target.codec.decodeResponse(json);
  options.issuers?.recordParts(decoded.content, target.name);
  const unfinished = passthrough ? undefined : unfinishedAnswerError(decoded.finishReason);
  if (unfinished) throw unfinished;
  const body =
    passthrough && isJSONObject(json)
      ? { ...json, model: options.request.model }
      : options.inbound.encodeResponse(decoded, encodeContext(options));
  return { kind: 'json', headers, body, upstreamId: decoded.id, finishReason: decoded.finishReason, usage: decoded.usage, response: decoded };
}

/** The upstream's stream, read up to its commit point, ready to pipe to the client. */
async function streamAnswer({ options, target, response, passthrough, headers }: UpstreamRead): Promise<UpstreamAnswer> {
  const { signal, frameTap, formatFrame } = options;
  const { createStreamFramer } = target.kind;
  const framer = createStreamFramer && (await Promise.resolve(createStreamFramer()).catch(error => releaseBody(response, error)));
  const pipeline = passthrough
    ? createPassthroughPipeline(
        target.codec.createStreamDecoder(),
        target.codec.createPassthroughStream!(options.request.model),
        frameTap,
        formatFrame,
        framer,
      )
    : createStreamPipeline(target.codec, options.inbound, encodeContext(options), frameTap, formatFrame, framer);
  const opened = await readToCommitPoint(response, pipeline, signal);
  const { issuers } = options;
  const recordProof = issuers && ((proof: string) => issuers.recordProof(proof, target.name));
  return {
    kind: 'stream',
    headers: pipeline.contentType === undefined ? headers : { ...headers, 'content-type': pipeline.contentType },
    pipe: sink => pipeCommittedStream(opened, pipeline, sink, signal, frameTap, recordProof),
    abandon: () => abandonStream(opened),
  };
}

/** An answer that will not be read: its connection is let go, and the error that stopped it thrown. */
function releaseBody(response: UpstreamResponse, error: unknown): never {
  void response.body[Symbol.asyncIterator]().return?.()?.catch(() => undefined);
  throw error;
}
