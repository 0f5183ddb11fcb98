import { createSimulator, type Simulator } from '@signalbox/simulator';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { awsSignatureMatches } from '../../scripts/bench/check-aws-signature.mjs';
import { emulatedTokenCount } from './emulated-token-count';
import { listenOnLoopback } from './listen-on-loopback';

const REGION = 'us-east-1';
const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** An AWS identity the emulated account knows: the secret a signature is checked with, and the session token temporary keys must carry. */
export type KnownAWSKey = {
  secretAccessKey: string;
  sessionToken?: string;
  /** An identity allowed `bedrock:InvokeModel*` but not `bedrock:CountTokens`: its counts are refused with `AccessDeniedException`. */
  withoutCountTokens?: boolean;
};

export type BedrockEmulator = {
  /** `http://127.0.0.1:<port>`, standing for `https://bedrock-runtime.us-east-1.amazonaws.com`. */
  baseURL: string;
  region: string;
  simulator: Simulator;
  /** Each call as checked, in order: its path as sent, the scheme, the access key ID (SigV4) and whether it was accepted. */
  calls: { path: string; scheme: 'sigv4' | 'bearer' | 'none'; accessKeyId?: string; signature?: string; accepted: boolean; body?: Record<string, unknown> }[];
  /** Makes the next `times` streamed answers end with an exception frame of `type`, after `afterEvents` chunks. */
  failStreams(type: string, afterEvents: number, times: number): void;
  close(): Promise<void>;
};

export type BedrockEmulatorOptions = {
  /** The account's keys by access key ID (looked up on each call, so keys issued later count). */
  keyOf(accessKeyId: string): KnownAWSKey | undefined;
  /** Bedrock API keys (`Authorization: Bearer`). */
  apiKeys?: readonly string[];
  /** Foundation models CountTokens refuses as not supporting it (besides every inference profile). */
  uncountableModels?: readonly string[];
};


/**
 * Bedrock Runtime on 127.0.0.1: `POST /model/{modelId}/invoke`, `/invoke-with-response-stream` and
 * `/count-tokens` (foundation models only, counted by `emulatedTokenCount`).
 * Every call's SigV4 signature is recomputed with the `aws4` package from the received method, path,
 * signed headers and body and the account's secret, and must match, and a signed body hash must be
 * the body's (`awsSignatureMatches`); else a 403 in AWS's words.
 * Behind that the simulator answers as a Messages API; streams go out as event-stream frames, each
 * frame written in two halves.
 */
export async function startBedrockEmulator(options: BedrockEmulatorOptions): Promise<BedrockEmulator> {
  const simulator = createSimulator({ tokenDelayMs: 0 });
  const messagesAPI = await listenOnLoopback(simulator.handler);
  const calls: BedrockEmulator['calls'] = [];
  let failures: { type: string; afterEvents: number; times: number } | undefined;
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawPath = request.url ?? '/';
    const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|count-tokens)$/.exec(rawPath);
    const text = await readText(request);
    const call: BedrockEmulator['calls'][number] = { path: rawPath, scheme: 'none', accepted: false };
    calls.push(call);
    const refusal = checkCredential(request, text, call, options);
    if (refusal) return refuse(response, refusal.status, refusal.type, refusal.message);
    call.accepted = true;
    if (!route) return refuse(response, 404, 'UnknownOperationException', 'Unknown operation');
    if (route[2] === 'count-tokens' && call.accessKeyId !== undefined && options.keyOf(call.accessKeyId)?.withoutCountTokens) {
      const resource = `arn:aws:bedrock:${REGION}::foundation-model/${decodeURIComponent(route[1]!)}`;
      return refuse(response, 403, 'AccessDeniedException', `User: arn:aws:iam::123456789012:user/gateway is not authorized to perform: bedrock:CountTokens on resource: ${resource} because no identity-based policy allows the bedrock:CountTokens action`);
    }
    if (route[2] === 'count-tokens') return countTokens(decodeURIComponent(route[1]!), text, call, response, options);
    const body = JSON.parse(text) as Record<string, unknown>;
    call.body = body;
    const betas = body['anthropic_beta'];
    const wrongBetas = request.headers['anthropic-beta'] !== undefined || (betas !== undefined && !(Array.isArray(betas) && betas.every(flag => typeof flag === 'string')));
    if (body['anthropic_version'] !== 'bedrock-2023-05-31' || 'model' in body || 'stream' in body || wrongBetas) {
      return refuse(response, 400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
    }
    const { anthropic_version: _version, anthropic_beta: _beta, ...messages } = body;
    const stream = route[2] === 'invoke-with-response-stream';
    const answer = await fetch(`${messagesAPI.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'bedrock' },
      body: JSON.stringify({ ...messages, model: decodeURIComponent(route[1]!), stream }),
    });
    if (!stream || !answer.ok) {
      response.writeHead(answer.status, { 'content-type': 'application/json', 'x-amzn-requestid': 'emulated' }).end(await answer.text());
      return;
    }
    const failure = failures;
    if (failures && --failures.times === 0) failures = undefined;
    response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'emulated' });
    await streamFrames(await answer.text(), response, failure);
  }
  const server = await listenOnLoopback((request, response) => {
    void serve(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  return {
    baseURL: server.url,
    region: REGION,
    simulator,
    calls,
    failStreams(type, afterEvents, times) {
      failures = times > 0 ? { type, afterEvents, times } : undefined;
    },
    async close() {
      await server.close();
      await messagesAPI.close();
    },
  };
}

type Refusal = { status: number; type: string; message: string };

/** CountTokens: `{"input":{"invokeModel":{"body":"<base64 of an InvokeModel body>"}}}` answered `{"inputTokens": N}`. */
function countTokens(modelId: string, text: string, call: BedrockEmulator['calls'][number], response: ServerResponse, options: BedrockEmulatorOptions): void {
  if (!modelId.startsWith('anthropic.') || options.uncountableModels?.includes(modelId)) {
    return refuse(response, 400, 'ValidationException', "The provided model doesn't support counting tokens.");
  }
  const encoded = (JSON.parse(text) as { input?: { invokeModel?: { body?: unknown } } }).input?.invokeModel?.body;
  const body = typeof encoded === 'string' ? (JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as Record<string, unknown>) : undefined;
  call.body = body;
  if (!body || body['anthropic_version'] !== 'bedrock-2023-05-31' || 'model' in body || typeof body['max_tokens'] !== 'number' || !Array.isArray(body['messages'])) {
    return refuse(response, 400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
  }
  const inputTokens = emulatedTokenCount(body as Parameters<typeof emulatedTokenCount>[0]);
  response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'emulated' }).end(JSON.stringify({ inputTokens }));
}

/** A Bedrock API key, or a SigV4 signature recomputed by `aws4` over what arrived and compared. */
function checkCredential(request: IncomingMessage, body: string, call: BedrockEmulator['calls'][number], options: BedrockEmulatorOptions): Refusal | undefined {
  const authorization = request.headers.authorization ?? '';
  const bearer = /^Bearer (.+)$/.exec(authorization)?.[1];
  if (bearer !== undefined) {
    call.scheme = 'bearer';
    return options.apiKeys?.includes(bearer) ? undefined : { status: 403, type: 'AccessDeniedException', message: 'Authentication failed: Please make sure your API Key is valid.' };
  }
  const parts = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/bedrock\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!parts) return { status: 403, type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  call.scheme = 'sigv4';
  const [, accessKeyId, , region, signedHeaderNames, signature] = parts as unknown as [string, string, string, string, string, string];
  Object.assign(call, { accessKeyId, signature });
  const key = options.keyOf(accessKeyId);
  if (!key || region !== REGION) return { status: 403, type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  if (key.sessionToken !== undefined && request.headers['x-amz-security-token'] !== key.sessionToken) {
    return { status: 403, type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  }
  const matches = awsSignatureMatches({
    method: request.method ?? '',
    path: request.url ?? '',
    headers: request.headers,
    body,
    service: 'bedrock',
    region,
    credentials: { accessKeyId, secretAccessKey: key.secretAccessKey, ...(key.sessionToken !== undefined && { sessionToken: key.sessionToken }) },
    authorization,
    signedHeaderNames: signedHeaderNames.split(';'),
  });
  if (!matches) {
    return { status: 403, type: 'InvalidSignatureException', message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.' };
  }
  return undefined;
}

/** The simulator's Messages SSE as event-stream `chunk` frames, each written in two halves; a planned exception frame after `afterEvents` chunks. */
async function streamFrames(sse: string, response: ServerResponse, failure: { type: string; afterEvents: number } | undefined): Promise<void> {
  const events = sse.split('\n\n').flatMap(block => block.split('\n').filter(line => line.startsWith('data: ')).map(line => line.slice(6)));
  let sent = 0;
  for (const data of events) {
    if (failure && sent === failure.afterEvents) break;
    await writeHalves(response, chunkFrame(data));
    sent += 1;
  }
  if (failure) await writeHalves(response, exceptionFrame(failure.type));
  response.end();
}

function chunkFrame(data: string): Uint8Array {
  const payload = JSON.stringify({ bytes: Buffer.from(data).toString('base64'), p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123' });
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(payload),
  });
}

function exceptionFrame(type: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message: `Emulated ${type}` })),
  });
}

/** One frame as two TCP writes, the second after the first has been flushed. */
async function writeHalves(response: ServerResponse, frame: Uint8Array): Promise<void> {
  const middle = Math.floor(frame.length / 2);
  await new Promise<void>(resolve => response.write(frame.subarray(0, middle), () => resolve()));
  await new Promise<void>(resolve => response.write(frame.subarray(middle), () => resolve()));
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Bedrock's error: `{"message": …}` with the type in `x-amzn-errortype`. */
function refuse(response: ServerResponse, status: number, type: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/`, 'x-amzn-requestid': 'emulated' }).end(JSON.stringify({ message }));
}
