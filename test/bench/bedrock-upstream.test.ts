import type { SSEMessage, StreamFramer } from '@signalbox/core';
import { bedrockKind } from '@signalbox/kind-bedrock';
import { createSimulator, type Simulator } from '@signalbox/simulator';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { stopProcess, waitUntil } from '../helpers/throwaway-process';

const SCRIPT = join(__dirname, '../../scripts/bench/bedrock-upstream.mjs');
const REGION = 'us-east-1';
const MODEL_ID = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const KEY = { id: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`, secret: randomBytes(30).toString('base64') };
const AWS_VARIABLES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_EC2_METADATA_DISABLED', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE'];
const MESSAGES_BODY = { max_tokens: 256, system: 'Answer in plain words.', messages: [{ role: 'user', content: 'Describe how a signalbox sorts freight cars [[sim:tokens=12]]' }] };

type BenchUpstream = { url: string; process: ChildProcess };

/** bedrock-upstream.mjs in its own process, answering from `simulatorURL`, checking signatures as `verify` says. */
async function startBenchUpstream(simulatorURL: string, verify: { first: number; every: number }): Promise<BenchUpstream> {
  const environment = {
    PATH: process.env.PATH,
    PORT: '0',
    SIMULATOR_URL: simulatorURL,
    BENCH_AWS_REGION: REGION,
    BENCH_AWS_ACCESS_KEY_ID: KEY.id,
    BENCH_AWS_SECRET_ACCESS_KEY: KEY.secret,
    BENCH_VERIFY_FIRST: String(verify.first),
    BENCH_VERIFY_EVERY: String(verify.every),
  };
  const child = spawn(process.execPath, [SCRIPT], { env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitUntil(() => /listening on http/.test(output), { what: () => output, exited: () => child.exitCode !== null });
  return { url: /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!, process: child };
}

/** The Bedrock kind as the gateway opens it for `baseURL`, signing with the environment's keys. */
function openKind(baseURL: string) {
  const kind = bedrockKind.open({ upstream: 'bedrock', baseURL, protocol: 'anthropic-messages', environment: process.env, now: Date.now, rememberSecret() {} });
  return { kind, credential: kind.openCredential({ name: 'default', auth: { type: 'aws', region: REGION } }) };
}

/** One call as the Bedrock kind sends it: its path, body and SigV4 headers; `tamper` changes the body after signing. */
async function callBedrock(baseURL: string, stream: boolean, tamper = false): Promise<Response> {
  const { kind, credential } = openKind(baseURL);
  const call = { model: MODEL_ID, stream };
  const url = `${baseURL}${kind.path!(call)}`;
  const body = JSON.stringify(kind.prepareBody!(MESSAGES_BODY, call));
  const headers = { 'content-type': 'application/json', ...(await credential.authorize!({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body })) };
  return fetch(url, { method: 'POST', headers, body: tamper ? body.replace('plain', 'clear') : body });
}

/** The simulator's own Messages answer to the same request. */
async function askSimulator(simulatorURL: string, stream: boolean): Promise<string> {
  const answer = await fetch(`${simulatorURL}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'direct' },
    body: JSON.stringify({ ...MESSAGES_BODY, model: MODEL_ID, stream }),
  });
  return answer.text();
}

/** The `data:` lines of SSE text, with the random message ID made one. */
const dataLines = (sse: string) => sse.split('\n').filter(line => line.startsWith('data: ')).map(line => line.replace(/msg_[0-9a-f]+/, 'msg_ID'));
const withoutID = (json: string) => ({ ...(JSON.parse(json) as Record<string, unknown>), id: 'msg_ID' });

/** A streamed answer through the kind's framer, as SSE text. */
async function collect(framer: StreamFramer, stream: AsyncIterable<Uint8Array>): Promise<string> {
  const messages: SSEMessage[] = [];
  for await (const chunk of stream) messages.push(...framer.push(chunk));
  messages.push(...framer.end());
  return messages.map(message => `event: ${message.event}\ndata: ${message.data}\n\n`).join('');
}

async function tallyOf(upstream: BenchUpstream): Promise<{ calls: number; verified: number; refused: number }> {
  return (await fetch(`${upstream.url}/bench/tally`)).json() as Promise<{ calls: number; verified: number; refused: number }>;
}

/**
 * The benchmark's Bedrock upstream, called by the Bedrock kind itself (its path, body, SigV4
 * signature and event-stream decoder): it answers what the simulator answers, and checks the
 * signatures of the calls its sampling picks.
 */
describe('the bench Bedrock upstream (scripts/bench/bedrock-upstream.mjs)', () => {
  let simulator: Simulator;
  let simulatorURL: string;
  const started: BenchUpstream[] = [];
  const saved = new Map(AWS_VARIABLES.map(name => [name, process.env[name]]));

  beforeAll(async () => {
    simulator = createSimulator({ tokenDelayMs: 0 });
    simulatorURL = (await simulator.listen(0, '127.0.0.1')).url;
    for (const name of AWS_VARIABLES) delete process.env[name];
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: KEY.id, AWS_SECRET_ACCESS_KEY: KEY.secret, AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: '/nonexistent/config', AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials' });
  });

  afterAll(async () => {
    await Promise.all(started.map(upstream => stopProcess(upstream.process, 'SIGTERM')));
    await simulator.close();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  const start = async (verify: { first: number; every: number }) => {
    const upstream = await startBenchUpstream(simulatorURL, verify);
    started.push(upstream);
    return upstream;
  };

  it('answers invoke with the simulator’s Messages JSON, the same on a replay', async () => {
    const upstream = await start({ first: 10, every: 1000 });
    const expected = withoutID(await askSimulator(simulatorURL, false));

    for (let call = 0; call < 2; call += 1) {
      const answer = await callBedrock(upstream.url, false);
      expect(answer.status).toBe(200);
      expect(withoutID(await answer.text())).toEqual(expected);
    }
    expect(await tallyOf(upstream)).toEqual({ calls: 2, verified: 2, refused: 0 });
  });

  it('answers streams with event-stream frames that the Bedrock kind decodes into the simulator’s Messages events', async () => {
    const upstream = await start({ first: 10, every: 1000 });
    const expected = dataLines(await askSimulator(simulatorURL, true));
    const { kind } = openKind(upstream.url);

    for (let call = 0; call < 2; call += 1) {
      const answer = await callBedrock(upstream.url, true);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
      const sse = await collect(await kind.createStreamFramer!(), answer.body as unknown as AsyncIterable<Uint8Array>);
      expect(dataLines(sse)).toEqual(expected);
    }
    expect(expected.some(line => line.includes('"content_block_delta"'))).toBe(true);
  });

  it('checks the first calls’ signatures and then one call in N, refusing a wrong one with 403', async () => {
    const upstream = await start({ first: 1, every: 3 });

    const refused = await callBedrock(upstream.url, false, true);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-amzn-errortype')).toBe('InvalidSignatureException');
    expect((await callBedrock(upstream.url, false, true)).status).toBe(200);
    expect((await callBedrock(upstream.url, false, true)).status).toBe(403);
    expect((await callBedrock(upstream.url, false)).status).toBe(200);
    expect((await callBedrock(upstream.url, false)).status).toBe(200);
    expect((await callBedrock(upstream.url, true)).status).toBe(200);

    expect(await tallyOf(upstream)).toEqual({ calls: 6, verified: 1, refused: 2 });
  });
});
