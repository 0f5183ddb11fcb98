// The benchmark's Bedrock Runtime: `POST /model/{modelId}/invoke` answers with the simulator's
// Messages JSON and `/invoke-with-response-stream` with the simulator's Messages events as AWS
// event-stream `chunk` frames. Each distinct call is asked of the simulator (SIMULATOR_URL) once,
// its answer encoded once and replayed from then on, so this process spends per call about what
// the simulator does. SigV4 signatures are recomputed with `aws4` (not the gateway's signer) for
// the first BENCH_VERIFY_FIRST calls and one in BENCH_VERIFY_EVERY after that, so checking does not
// take the cores the gateway is measured on; `GET /bench/tally` counts what was checked.
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { createServer } from 'node:http';
import { setTimeout as wait } from 'node:timers/promises';
import { awsSignatureMatches } from './check-aws-signature.mjs';

const REGION = process.env.BENCH_AWS_REGION ?? 'us-east-1';
const ACCESS_KEY_ID = process.env.BENCH_AWS_ACCESS_KEY_ID ?? '';
const SECRET_ACCESS_KEY = process.env.BENCH_AWS_SECRET_ACCESS_KEY ?? '';
const VERIFY_FIRST = Number(process.env.BENCH_VERIFY_FIRST ?? 50);
const VERIFY_EVERY = Number(process.env.BENCH_VERIFY_EVERY ?? 1000);
const SIMULATOR_URL = process.env.SIMULATOR_URL;
/** Distinct calls remembered; past that a call is asked of the simulator each time (the bench sends a handful). */
const MAX_ANSWERS = 64;
/** The `[[sim:slow=MS]]` marker: the pause the simulator makes before each token, replayed here before each delta frame. */
const SLOW = /\s*\[\[sim:slow=(\d+)\]\]/;
/** Bedrock's padding field, which varies the frame's length so it does not tell the answer's. */
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const answers = new Map();
const tally = { calls: 0, verified: 0, refused: 0 };

/** The signature of `authorization` recomputed by `aws4` over what arrived; a refusal's words, or undefined when it matches. */
function checkSignature(request, body) {
  const authorization = request.headers.authorization ?? '';
  const parts = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/bedrock\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=[0-9a-f]{64}$/.exec(authorization);
  if (!parts) return 'MissingAuthenticationTokenException';
  const [, accessKeyId, region, signedHeaderNames] = parts;
  if (accessKeyId !== ACCESS_KEY_ID || region !== REGION) return 'UnrecognizedClientException';
  const matches = awsSignatureMatches({
    method: request.method,
    path: request.url,
    headers: request.headers,
    body,
    service: 'bedrock',
    region,
    credentials: { accessKeyId, secretAccessKey: SECRET_ACCESS_KEY },
    authorization,
    signedHeaderNames: signedHeaderNames.split(';'),
  });
  return matches ? undefined : 'InvalidSignatureException';
}

/** One `chunk` frame carrying the Messages event `data` (its JSON text), as Bedrock sends it. */
function chunkFrame(data) {
  const payload = JSON.stringify({ bytes: Buffer.from(data).toString('base64'), p: PADDING });
  const headers = {
    ':event-type': { type: 'string', value: 'chunk' },
    ':content-type': { type: 'string', value: 'application/json' },
    ':message-type': { type: 'string', value: 'event' },
  };
  return Buffer.from(codec.encode({ headers, body: fromUtf8(payload) }));
}

/**
 * Asks the simulator for the Messages answer to a Bedrock call (`modelId` from its path, `text` its
 * body) and encodes it: `{ status, json }` for `invoke`, `{ status, frames: [{ bytes, delta }], slowMs }`
 * for a stream. The simulator is asked without the slow marker; the replay makes the pauses.
 */
async function askSimulator(modelId, stream, text) {
  const slowMs = Number(SLOW.exec(text)?.[1] ?? 0);
  const messages = JSON.parse(text.replace(SLOW, ''));
  delete messages.anthropic_version;
  delete messages.anthropic_beta;
  const answer = await fetch(`${SIMULATOR_URL}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'bench-bedrock' },
    body: JSON.stringify({ ...messages, model: decodeURIComponent(modelId), stream }),
  });
  const body = await answer.text();
  if (!stream || !answer.ok) return { status: answer.status, json: Buffer.from(body) };
  const events = body.split('\n').filter(line => line.startsWith('data: ')).map(line => line.slice('data: '.length));
  const frames = events.map(data => ({ bytes: chunkFrame(data), delta: JSON.parse(data).type === 'content_block_delta' }));
  return { status: 200, frames, slowMs };
}

/** The encoded answer to a call, asked of the simulator the first time (concurrent first calls share the question). */
function answerTo(modelId, stream, text) {
  const key = `${stream}\n${modelId}\n${text}`;
  let answer = answers.get(key);
  if (answer) return answer;
  answer = askSimulator(modelId, stream, text);
  if (answers.size < MAX_ANSWERS) {
    answers.set(key, answer);
    answer.catch(() => answers.delete(key));
  }
  return answer;
}

/** Writes the frames, pausing `slowMs` before each delta as the simulator does before each token, and waiting when the socket pushes back. */
async function writeFrames(response, { frames, slowMs }) {
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'bench' });
  for (const { bytes, delta } of frames) {
    if (delta && slowMs > 0) await wait(slowMs);
    if (response.destroyed) return;
    if (!response.write(bytes)) await drainOrClose(response);
  }
  response.end();
}

/** Resolves when `response` can take more, or is gone. */
function drainOrClose(response) {
  return new Promise(resolve => {
    const done = () => {
      response.off('drain', done).off('close', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
  });
}

/** Bedrock's error: `{"message": …}` with the type in `x-amzn-errortype`. */
function refuse(response, status, type) {
  response.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type, 'x-amzn-requestid': 'bench' }).end(JSON.stringify({ message: type }));
}

async function serve(request, response) {
  if (request.method === 'GET' && request.url === '/bench/tally') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(tally));
    return;
  }
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  tally.calls += 1;
  if (tally.calls <= VERIFY_FIRST || tally.calls % VERIFY_EVERY === 0) {
    const refusal = checkSignature(request, text);
    if (refusal) {
      tally.refused += 1;
      return refuse(response, 403, refusal);
    }
    tally.verified += 1;
  }
  const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(request.url ?? '');
  if (!route) return refuse(response, 404, 'UnknownOperationException');
  const answer = await answerTo(route[1], route[2] === 'invoke-with-response-stream', text);
  if (!answer.frames) {
    response.writeHead(answer.status, { 'content-type': 'application/json', 'x-amzn-requestid': 'bench' }).end(answer.json);
    return;
  }
  await writeFrames(response, answer);
}

const server = createServer((request, response) => {
  serve(request, response).catch(error => {
    process.stderr.write(`bedrock upstream: ${error.message}\n`);
    if (!response.headersSent) refuse(response, 500, 'InternalServerException');
    else response.destroy();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
