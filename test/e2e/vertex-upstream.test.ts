import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVertexKind } from '@signalbox/kind-vertex';
import { startWithConfig } from '../errors/refusal-helpers';
import { emulatedTokenCount } from '../helpers/emulated-token-count';
import { GOOGLE_TOKEN_URL, startGoogleTokenEndpoint, type GoogleTokenEndpoint } from '../helpers/start-google-token-endpoint';
import { startVertexEmulator, type VertexEmulator } from '../helpers/start-vertex-emulator';
import type { TestGateway } from '../helpers/start-test-gateway';
import { protocolClients, type ClientProtocol } from '../helpers/ask-every-protocol';

const PROJECT = 'signalbox-vertex-test';
const REGION = 'us-east5';
const MODEL = 'claude-sonnet-4-5@20250929';
/** A model the emulated count-tokens does not count. */
const UNCOUNTABLE_MODEL = 'claude-3-haiku@20240307';
const ALL_INTERFACES = ['responses', 'messages', 'chat'];

/**
 * The example server in front of an emulated Vertex AI location and an emulated Google OAuth token
 * endpoint: `vertex` upstreams whose service-account key files the test writes (a fresh RSA key),
 * their access tokens living 2 seconds, and one whose key Google does not know. `google-auth-library`
 * posts to Google's fixed token URL, so its transport sends that URL to the emulator.
 */
describe('Google Vertex AI upstreams (kind vertex)', () => {
  let google: GoogleTokenEndpoint;
  let vertex: VertexEmulator;
  let forbidden: VertexEmulator;
  let server: TestGateway;
  let directory: string;

  beforeAll(async () => {
    google = await startGoogleTokenEndpoint(2);
    vertex = await startVertexEmulator({ project: PROJECT, region: REGION, verifyToken: token => google.verify(token), uncountableModels: [UNCOUNTABLE_MODEL] });
    forbidden = await startVertexEmulator({ project: 'another-project', region: REGION, verifyToken: token => google.verify(token), permitted: false });
    directory = mkdtempSync(join(tmpdir(), 'signalbox-vertex-'));
    const keyFile = join(directory, 'service-account.json');
    const foreignKeyFile = join(directory, 'foreign-service-account.json');
    writeFileSync(keyFile, JSON.stringify(google.keyFile()));
    writeFileSync(foreignKeyFile, JSON.stringify(google.keyFile({ foreign: true })));
    const toEmulator: typeof fetch = (input, init) => fetch(String(input) === GOOGLE_TOKEN_URL ? google.tokenURL : input, init);
    const upstream = (settings: Record<string, unknown>) => ({ kind: 'vertex', protocol: 'anthropic-messages', baseURL: vertex.baseURL, ...settings });
    const route = (model: string, upstreamName: string) => ({ model, interfaces: ALL_INTERFACES, targets: [{ upstream: upstreamName, model: MODEL }] });
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: {
          ...config.upstreams,
          'vertex-key-file': upstream({ auth: { type: 'google', keyFile } }),
          'vertex-default': upstream({}),
          'vertex-foreign-key': upstream({ auth: { type: 'google', keyFile: foreignKeyFile } }),
          'vertex-forbidden': { ...upstream({}), baseURL: forbidden.baseURL },
          'vertex-forbidden-count': { ...upstream({}), baseURL: forbidden.baseURL },
        },
        routes: [
          ...config.routes,
          ...['vertex-key-file', 'vertex-default', 'vertex-foreign-key', 'vertex-forbidden', 'vertex-forbidden-count'].map(name => route(name, name)),
          { model: 'vertex-uncountable', interfaces: ALL_INTERFACES, targets: [{ upstream: 'vertex-key-file', model: UNCOUNTABLE_MODEL }] },
        ],
      }),
      {
        environment: { GOOGLE_APPLICATION_CREDENTIALS: keyFile },
        kinds: [createVertexKind({ transporterOptions: { fetchImplementation: toEmulator } })],
      },
    );
  });
  afterAll(async () => {
    // Every access token Google handed out, and the account's private key, are secrets the logs must not hold.
    server?.audit.remember([...google.issued, google.keyFile()['private_key']!]);
    await server?.close(1_000);
    await vertex?.close();
    await forbidden?.close();
    await google?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const clients = () => protocolClients(server);
  const openai = () => clients().openai();
  const anthropic = () => clients().anthropic();
  const ask = (client: ClientProtocol, model: string, stream: boolean) => clients().ask(client, model, stream, 'Name a lighthouse');

  it.each(['vertex-key-file', 'vertex-default'])('serves every client protocol, whole and streamed, through %s at rawPredict and streamRawPredict', async model => {
    const before = vertex.served.length;
    for (const client of ['responses', 'chat', 'messages'] as const) {
      for (const stream of [false, true]) expect((await ask(client, model, stream)).length).toBeGreaterThan(0);
    }
    const calls = vertex.served.slice(before);
    expect(calls.map(call => call.method)).toEqual(['rawPredict', 'streamRawPredict', 'rawPredict', 'streamRawPredict', 'rawPredict', 'streamRawPredict']);
    for (const call of calls) expect(call).toMatchObject({ model: MODEL, anthropicVersion: 'vertex-2023-10-16' });
    // A streamed answer is asked for in the body too, as Vertex's streamRawPredict expects.
    expect(calls.filter(call => call.method === 'streamRawPredict').every(call => call.stream === true)).toBe(true);
    expect(server.recentUsage().at(-1)).toMatchObject({ upstream: model, upstreamKind: 'vertex', status: 200 });
  });

  it('completes a tool round trip from the Anthropic SDK, streamed, with the beta header passed on', async () => {
    const tools = [{ name: 'get_tide', description: 'Returns the tide times for a harbour.', input_schema: { type: 'object' as const, properties: { harbour: { type: 'string' } }, required: ['harbour'] } }];
    const client = anthropic();
    const question = { role: 'user' as const, content: 'Use get_tide for the harbour Brest.' };
    const call = await client.messages.stream({ model: 'vertex-key-file', max_tokens: 256, tools, messages: [question] }, { headers: { 'anthropic-beta': 'token-efficient-tools-2025-02-19' } }).finalMessage();
    expect(call.stop_reason).toBe('tool_use');
    const toolUse = call.content.find(block => block.type === 'tool_use')!;
    expect(toolUse).toMatchObject({ type: 'tool_use', name: 'get_tide' });
    const answer = await client.messages.create({
      model: 'vertex-key-file',
      max_tokens: 256,
      tools,
      messages: [question, { role: 'assistant', content: call.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'High water 06:12.' }] }],
    });
    expect(answer.stop_reason).toBe('end_turn');
    expect(vertex.served.at(-2)).toMatchObject({ method: 'streamRawPredict', beta: 'token-efficient-tools-2025-02-19' });
  });

  it("answers count_tokens with Vertex AI's count-tokens:rawPredict, with the access token, unmarked", async () => {
    const tokens = vertex.tokens.length;
    // Long words: the emulated count (per word) is far from the gateway's estimate (per 4 bytes).
    const counting = { system: 'Answer unhesitatingly', messages: [{ role: 'user' as const, content: 'Incomprehensibilities notwithstanding, characteristically uncharacteristic?' }] };
    const counted = await anthropic().messages.countTokens({ model: 'vertex-key-file', ...counting }).withResponse();
    expect(counted.data.input_tokens).toBe(emulatedTokenCount(counting));
    expect(counted.response.headers.get('x-signalbox-warnings')).toBeNull();
    expect(vertex.tokens.slice(tokens).map(token => token.accepted)).toEqual([true]);
  });

  it("falls back to the gateway's estimate, marked, for a model count-tokens refuses", async () => {
    const tokens = vertex.tokens.length;
    const counted = await anthropic().messages.countTokens({ model: 'vertex-uncountable', messages: [{ role: 'user', content: 'How many tokens is this sentence?' }] }).withResponse();
    expect(vertex.tokens.length - tokens).toBe(1);
    expect(counted.data.input_tokens).toBeGreaterThan(0);
    expect(counted.response.headers.get('x-signalbox-warnings')).toBe('input_tokens (estimate)');
  });

  it('answers count_tokens with 502 UPSTREAM_AUTH_FAILED when Vertex AI denies the permission', async () => {
    const failure = await anthropic().messages.countTokens({ model: 'vertex-forbidden-count', messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502, error: { type: 'error', error: { type: 'api_error' }, code: 'UPSTREAM_AUTH_FAILED', request_id: expect.stringMatching(/^req_/) } });
  });

  it('answers 502 UPSTREAM_AUTH_FAILED when Google refuses the service account key, before calling Vertex, and takes the credential out', async () => {
    const calls = vertex.tokens.length;
    const failure = await anthropic().messages.create({ model: 'vertex-foreign-key', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502, error: { type: 'error', error: { type: 'api_error' }, code: 'UPSTREAM_AUTH_FAILED', request_id: expect.stringMatching(/^req_/) } });
    expect(google.refused).toBeGreaterThan(0);
    expect(vertex.tokens).toHaveLength(calls);
    const health = server.gateway.engine.upstreamHealth().find(report => report.name === 'vertex-foreign-key')!;
    expect(health.credentials[0]).toMatchObject({ name: 'default', state: 'disabled', reason: 'upstream-401' });
  });

  it('answers 502 UPSTREAM_AUTH_FAILED when Vertex AI denies the account the predict permission, quoting neither token nor key', async () => {
    const failure = await openai().chat.completions.create({ model: 'vertex-forbidden', messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502, error: { code: 'upstream_auth_failed' } });
    expect(forbidden.tokens.at(-1)).toMatchObject({ accepted: true });
    expect(JSON.stringify((failure as { error: unknown }).error)).not.toContain(forbidden.tokens.at(-1)!.value);
    const health = server.gateway.engine.upstreamHealth().find(report => report.name === 'vertex-forbidden')!;
    expect(health.credentials[0]).toMatchObject({ name: 'default', state: 'disabled', reason: 'upstream-403' });
  });

  it('keeps serving while access tokens rotate, with no failed request and tokens fetched ahead of expiry', async () => {
    const tokensBefore = google.issued.length;
    const answers: string[] = [];
    // Requests go on until Google has handed out three more tokens than it had (each lives 2 seconds).
    const deadline = Date.now() + 15_000;
    while (google.issued.length < tokensBefore + 3 && Date.now() < deadline) {
      answers.push(await ask(answers.length % 2 === 0 ? 'messages' : 'chat', 'vertex-key-file', answers.length % 3 === 0));
    }
    expect(google.issued.length).toBeGreaterThanOrEqual(tokensBefore + 3);
    expect(answers.every(answer => answer.length > 0)).toBe(true);
    expect(vertex.tokens.every(token => token.accepted)).toBe(true);
    expect(new Set(vertex.tokens.map(token => token.value)).size).toBeGreaterThanOrEqual(2);
    expect(google.issued.length - tokensBefore).toBeLessThan(answers.length);
    // Every token the gateway sent is known to its recogniser. (The last one Google issued may still be
    // on its way to the gateway when the loop ends: a token it never received cannot reach a log.)
    for (const token of new Set(vertex.tokens.map(sent => sent.value))) expect(server.gateway.engine.secrets.scrub(`sent ${token}`)).toBe('sent [redacted]');
  });
});
