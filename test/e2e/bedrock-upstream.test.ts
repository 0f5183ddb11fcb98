import Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWithConfig } from '../errors/refusal-helpers';
import { authHeaders, postForSSE } from '../helpers/read-sse';
import { startAWSContainerCredentials, type AWSContainerCredentials } from '../helpers/start-aws-container-credentials';
import { emulatedTokenCount } from '../helpers/emulated-token-count';
import { startBedrockEmulator, type BedrockEmulator, type KnownAWSKey } from '../helpers/start-bedrock-emulator';
import type { TestGateway } from '../helpers/start-test-gateway';
import { protocolClients, type ClientProtocol } from '../helpers/ask-every-protocol';
import { validateMessagesStream } from '../stream-validators';

const ALL_INTERFACES = ['responses', 'messages', 'chat'];
/** A cross-region inference profile: its `:` is where signatures most often go wrong. */
const MODEL_ID = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const PROFILE_KEY = { id: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`, secret: randomBytes(30).toString('base64') };
/** An identity that may invoke the model but not count its tokens. */
const NO_COUNT_KEY = { id: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`, secret: randomBytes(30).toString('base64') };
const BEDROCK_API_KEY = `ABSK${randomBytes(40).toString('base64')}`;
/** A foundation model the emulated CountTokens does not count. */
const UNCOUNTABLE_MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';
const weather = { name: 'get_weather', description: 'Current weather for a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };

/** The AWS variables the SDK's default chain reads, set for this file and put back after. */
const AWS_VARIABLES = ['AWS_SHARED_CREDENTIALS_FILE', 'AWS_CONFIG_FILE', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_AUTHORIZATION_TOKEN', 'AWS_EC2_METADATA_DISABLED', 'AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_WEB_IDENTITY_TOKEN_FILE'];

/**
 * The example server in front of an emulated Bedrock Runtime that re-signs every call with `aws4`:
 * upstreams of kind `bedrock` signing with a shared-config profile, with 2-second keys from an
 * emulated container credentials endpoint, with a Bedrock API key, and with a profile whose secret
 * is wrong.
 */
describe('Amazon Bedrock upstreams (kind bedrock)', () => {
  let container: AWSContainerCredentials;
  let bedrock: BedrockEmulator;
  let server: TestGateway;
  let directory: string;
  const saved = new Map(AWS_VARIABLES.map(name => [name, process.env[name]]));

  beforeAll(async () => {
    container = await startAWSContainerCredentials(2);
    const keyOf = (id: string): KnownAWSKey | undefined => {
      if (id === NO_COUNT_KEY.id) return { secretAccessKey: NO_COUNT_KEY.secret, withoutCountTokens: true };
      return id === PROFILE_KEY.id ? { secretAccessKey: PROFILE_KEY.secret } : container.issued.get(id);
    };
    bedrock = await startBedrockEmulator({ keyOf, apiKeys: [BEDROCK_API_KEY], uncountableModels: [UNCOUNTABLE_MODEL] });
    directory = mkdtempSync(join(tmpdir(), 'signalbox-bedrock-'));
    const credentialsFile = join(directory, 'credentials');
    writeFileSync(
      credentialsFile,
      `[gateway]\naws_access_key_id = ${PROFILE_KEY.id}\naws_secret_access_key = ${PROFILE_KEY.secret}\n\n[wrong]\naws_access_key_id = ${PROFILE_KEY.id}\naws_secret_access_key = ${PROFILE_KEY.secret.slice(1)}x\n\n[no-count]\naws_access_key_id = ${NO_COUNT_KEY.id}\naws_secret_access_key = ${NO_COUNT_KEY.secret}\n`,
    );
    for (const name of AWS_VARIABLES) delete process.env[name];
    Object.assign(process.env, {
      AWS_SHARED_CREDENTIALS_FILE: credentialsFile,
      AWS_CONFIG_FILE: join(directory, 'config'),
      AWS_CONTAINER_CREDENTIALS_FULL_URI: container.url,
      AWS_CONTAINER_AUTHORIZATION_TOKEN: container.authorizationToken,
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    const upstream = (settings: Record<string, unknown>) => ({ kind: 'bedrock', protocol: 'anthropic-messages', baseURL: bedrock.baseURL, ...settings });
    const route = (model: string, upstreamName: string) => ({ model, interfaces: ALL_INTERFACES, targets: [{ upstream: upstreamName, model: MODEL_ID }] });
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: {
          ...config.upstreams,
          'bedrock-profile': upstream({ auth: { type: 'aws', profile: 'gateway', region: bedrock.region } }),
          'bedrock-container': upstream({ auth: { type: 'aws', region: bedrock.region } }),
          'bedrock-key': upstream({ apiKeyEnv: 'BEDROCK_API_KEY' }),
          'bedrock-wrong': upstream({ auth: { type: 'aws', profile: 'wrong', region: bedrock.region } }),
          'bedrock-failover': upstream({ apiKeyEnv: 'BEDROCK_API_KEY' }),
          'bedrock-wrong-count': upstream({ auth: { type: 'aws', profile: 'wrong', region: bedrock.region } }),
          'bedrock-no-count': upstream({ auth: { type: 'aws', profile: 'no-count', region: bedrock.region } }),
        },
        routes: [
          ...config.routes,
          route('bedrock-profile', 'bedrock-profile'),
          route('bedrock-container', 'bedrock-container'),
          route('bedrock-key', 'bedrock-key'),
          route('bedrock-wrong', 'bedrock-wrong'),
          route('bedrock-wrong-count', 'bedrock-wrong-count'),
          route('bedrock-no-count', 'bedrock-no-count'),
          { model: 'bedrock-uncountable', interfaces: ALL_INTERFACES, targets: [{ upstream: 'bedrock-key', model: UNCOUNTABLE_MODEL }] },
          // A cloud target first, the same model family direct after it.
          {
            model: 'bedrock-then-direct',
            interfaces: ALL_INTERFACES,
            targets: [
              { upstream: 'bedrock-failover', model: MODEL_ID },
              { upstream: 'simulator-messages', model: 'sim-1' },
            ],
          },
        ],
      }),
      { environment: { BEDROCK_API_KEY } },
    );
    server.audit.remember([PROFILE_KEY.id, PROFILE_KEY.secret, NO_COUNT_KEY.id, NO_COUNT_KEY.secret]);
  });
  afterAll(async () => {
    // Every key the container endpoint handed out, and every signature sent, must be absent from the logs.
    const issued = [...(container?.issued ?? new Map<string, KnownAWSKey>())].flatMap(([id, key]) => [id, key.secretAccessKey, key.sessionToken ?? '']);
    server?.audit.remember([...issued, ...(bedrock?.calls ?? []).map(call => call.signature ?? '')].filter(Boolean));
    await server?.close(1_000);
    await bedrock?.close();
    await container?.close();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const openai = () => protocolClients(server).openai();
  const anthropic = () => protocolClients(server).anthropic();

  const ask = (client: ClientProtocol, model: string, stream: boolean) => protocolClients(server).ask(client, model, stream, 'Name a harbour');

  it.each([
    ['bedrock-profile', 'sigv4'],
    ['bedrock-key', 'bearer'],
  ])('serves every client protocol, whole and streamed, through %s (%s), the inference profile in the path', async (model, scheme) => {
    const before = bedrock.calls.length;
    for (const client of ['responses', 'chat', 'messages'] as const) {
      for (const stream of [false, true]) expect((await ask(client, model, stream)).length).toBeGreaterThan(0);
    }
    const calls = bedrock.calls.slice(before);
    expect(calls.map(call => [call.path, call.scheme, call.accepted])).toEqual(
      [false, true, false, true, false, true].map(stream => [`/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/${stream ? 'invoke-with-response-stream' : 'invoke'}`, scheme, true]),
    );
    for (const call of calls) expect(call.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', max_tokens: expect.any(Number), messages: expect.any(Array) });
    expect(server.recentUsage().at(-1)).toMatchObject({ upstream: model, upstreamKind: 'bedrock', status: 200 });
  });

  it('passes a Messages stream through as the wire bytes of a Messages upstream, frames cut across TCP writes', async () => {
    const raw = await postForSSE(`${server.url}/v1/messages`, authHeaders.messages(server.demoKey), { model: 'bedrock-profile', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hello' }] });
    expect(validateMessagesStream(raw.messages).violations).toEqual([]);
    expect(raw.messages.at(-1)!.event).toBe('message_stop');
  });

  it('carries a Messages client\'s beta flags in the body as anthropic_beta', async () => {
    const client = new Anthropic({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0, defaultHeaders: { 'anthropic-beta': 'context-1m-2025-08-07, interleaved-thinking-2025-05-14' } });
    await client.messages.create({ model: 'bedrock-profile', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
    expect(bedrock.calls.at(-1)).toMatchObject({ accepted: true, body: { anthropic_beta: ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'] } });
  });

  it("answers count_tokens with Bedrock's CountTokens, signed, the inference profile counted as its foundation model", async () => {
    // Long words: the emulated count (per word) is far from the gateway's estimate (per 4 bytes).
    const counting = { system: 'Answer unhesitatingly', messages: [{ role: 'user' as const, content: 'Incomprehensibilities notwithstanding, characteristically uncharacteristic?' }] };
    const counted = await anthropic().messages.countTokens({ model: 'bedrock-profile', ...counting }).withResponse();
    expect(counted.data.input_tokens).toBe(emulatedTokenCount(counting));
    expect(counted.response.headers.get('x-signalbox-warnings')).toBeNull();
    expect(bedrock.calls.at(-1)).toMatchObject({ path: '/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/count-tokens', scheme: 'sigv4', accepted: true, body: { ...counting, anthropic_version: 'bedrock-2023-05-31' } });
  });

  it('falls back to the gateway\'s estimate, marked, for a model CountTokens refuses', async () => {
    const calls = bedrock.calls.length;
    const counted = await anthropic().messages.countTokens({ model: 'bedrock-uncountable', messages: [{ role: 'user', content: 'How many tokens is this sentence?' }] }).withResponse();
    expect(bedrock.calls.slice(calls).map(call => [call.path, call.accepted])).toEqual([[`/model/${encodeURIComponent(UNCOUNTABLE_MODEL)}/count-tokens`, true]]);
    expect(counted.data.input_tokens).toBeGreaterThan(0);
    expect(counted.response.headers.get('x-signalbox-warnings')).toBe('input_tokens (estimate)');
  });

  it('answers count_tokens with 502 UPSTREAM_AUTH_FAILED when Bedrock refuses the signature', async () => {
    const failure = await anthropic().messages.countTokens({ model: 'bedrock-wrong-count', messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502, error: { error: { type: 'api_error' }, code: 'UPSTREAM_AUTH_FAILED' } });
    expect(bedrock.calls.at(-1)).toMatchObject({ path: expect.stringMatching(/\/count-tokens$/), scheme: 'sigv4', accepted: false });
  });

  it('falls back to the estimate, marked, for an identity without bedrock:CountTokens (AccessDeniedException), which still invokes', async () => {
    const calls = bedrock.calls.length;
    const counted = await anthropic().messages.countTokens({ model: 'bedrock-no-count', messages: [{ role: 'user', content: 'How many tokens is this sentence?' }] }).withResponse();
    expect(counted.data.input_tokens).toBeGreaterThan(0);
    expect(counted.response.headers.get('x-signalbox-warnings')).toBe('input_tokens (estimate)');
    expect((await ask('messages', 'bedrock-no-count', false)).length).toBeGreaterThan(0);
    expect(bedrock.calls.slice(calls).map(call => [call.path.split('/').at(-1), call.accessKeyId, call.accepted])).toEqual([
      ['count-tokens', NO_COUNT_KEY.id, true],
      ['invoke', NO_COUNT_KEY.id, true],
    ]);
  });

  it('completes a tool round trip and replays signed thinking to the same upstream', async () => {
    const ask = { model: 'bedrock-profile', max_tokens: 2048, tools: [weather] };
    const first = await anthropic().messages.create({ ...ask, messages: [{ role: 'user', content: 'What is the weather in Oslo?' }] });
    const use = first.content.find(block => block.type === 'tool_use');
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: expect.any(String) } });
    const followUp = await anthropic().messages.create({
      ...ask,
      messages: [
        { role: 'user', content: 'What is the weather in Oslo?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use!.type === 'tool_use' ? use!.id : '', content: 'Sunny and 21 degrees in Oslo today' }] },
      ],
    });
    expect(followUp.content.map(block => (block.type === 'text' ? block.text : '')).join('')).toContain('Sunny and 21 degrees');

    const thinking = { model: 'bedrock-key', max_tokens: 2048, thinking: { type: 'enabled' as const, budget_tokens: 1024 } };
    const thought = await anthropic().messages.stream({ ...thinking, messages: [{ role: 'user', content: 'Think about signal boxes' }] }).finalMessage();
    const block = thought.content[0];
    expect(block).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/.+/) });
    const second = await anthropic().messages.create({
      ...thinking,
      messages: [
        { role: 'user', content: 'Think about signal boxes' },
        { role: 'assistant', content: thought.content },
        { role: 'user', content: 'And now about harbours' },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    const replayed = (bedrock.calls.at(-1)!.body!['messages'] as { content: unknown }[])[1]!.content as { type: string; signature?: string }[];
    expect(replayed[0]).toMatchObject({ type: 'thinking', signature: block!.type === 'thinking' ? block!.signature : '' });
  });

  it.each([
    ['throttlingException', 0, 429, 'UPSTREAM_RATE_LIMITED'],
    ['validationException', 0, 400, 'UPSTREAM_INVALID_REQUEST'],
    ['serviceUnavailableException', 0, 503, 'UPSTREAM_OVERLOADED'],
  ])('answers a %s frame before the first byte with the service code', async (type, afterEvents, status, code) => {
    // Every attempt meets it (the retryable ones are tried again), then the emulator streams normally.
    bedrock.failStreams(type, afterEvents, 100);
    const failure = await anthropic().messages.stream({ model: 'bedrock-key', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage().catch((error: unknown) => error);
    expect(failure).toMatchObject({ status, error: { error: { type: expect.any(String) } } });
    bedrock.failStreams(type, 0, 0);
    expect((failure as { error: { code?: string } }).error.code).toBe(code);
  });

  it('fails over from a Bedrock target to a direct one before the first byte, and the ledger names the kind that served', async () => {
    const request = { model: 'bedrock-then-direct', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };
    /** The route's usage rows once there are `count` of them (a stream's row is written as it settles, just after its end). */
    const rows = async (count: number) => {
      const ofRoute = () => server.recentUsage().filter(record => record.model === 'bedrock-then-direct');
      for (let turn = 0; turn < 200 && ofRoute().length < count; turn++) await new Promise(resolve => setImmediate(resolve));
      return ofRoute();
    };
    const served = await anthropic().messages.stream(request).finalMessage();
    expect(served.stop_reason).toBe('end_turn');
    expect((await rows(1)).at(-1)).toMatchObject({ upstream: 'bedrock-failover', upstreamKind: 'bedrock', attempts: 1, status: 200 });

    const before = bedrock.calls.length;
    bedrock.failStreams('serviceUnavailableException', 0, 1);
    const failedOver = await anthropic().messages.stream(request).finalMessage();
    bedrock.failStreams('serviceUnavailableException', 0, 0);
    expect(failedOver.stop_reason).toBe('end_turn');
    expect(bedrock.calls.length - before).toBe(1);
    const row = (await rows(2)).at(-1)!;
    expect(row).toMatchObject({ upstream: 'simulator-messages', attempts: 2, status: 200 });
    expect(row.upstreamKind).toBeUndefined();
  });

  it('ends a stream that already began with the protocol terminal error on a modelStreamErrorException frame', async () => {
    bedrock.failStreams('modelStreamErrorException', 3, 1);
    const raw = await postForSSE(`${server.url}/v1/messages`, authHeaders.messages(server.demoKey), { model: 'bedrock-key', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hello' }] });
    expect(raw.messages[0]!.event).toBe('message_start');
    expect(raw.messages.at(-1)!.event).toBe('error');
    expect(raw.messages.some(message => message.event === 'message_stop')).toBe(false);
  });

  it('answers 502 UPSTREAM_AUTH_FAILED when Bedrock refuses the signature of a wrong secret, and takes the credential out', async () => {
    const failure = await openai().chat.completions.create({ model: 'bedrock-wrong', messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502, error: { code: 'upstream_auth_failed' } });
    expect(bedrock.calls.at(-1)).toMatchObject({ scheme: 'sigv4', accessKeyId: PROFILE_KEY.id, accepted: false });
    const health = server.gateway.engine.upstreamHealth().find(report => report.name === 'bedrock-wrong')!;
    expect(health.credentials[0]).toMatchObject({ name: 'default', state: 'disabled', reason: 'upstream-403' });
  });

  it('signs with 2-second container credentials and keeps serving while they rotate, under running streams, with no failed request', async () => {
    const keysBefore = container.issued.size;
    const answers: string[] = [];
    const deadline = Date.now() + 15_000;
    while (container.issued.size < keysBefore + 3 && Date.now() < deadline) {
      const batch = await Promise.all([ask('messages', 'bedrock-container', true), ask(answers.length % 2 === 0 ? 'responses' : 'chat', 'bedrock-container', answers.length % 3 === 0)]);
      answers.push(...batch);
    }
    expect(container.issued.size).toBeGreaterThanOrEqual(keysBefore + 3);
    expect(answers.every(answer => answer.length > 0)).toBe(true);
    const signed = bedrock.calls.filter(call => call.accessKeyId !== undefined && container.issued.has(call.accessKeyId));
    expect(signed.every(call => call.accepted)).toBe(true);
    expect(new Set(signed.map(call => call.accessKeyId)).size).toBeGreaterThanOrEqual(2);
    // Keys are fetched ahead of their expiry, never per request.
    expect(container.issued.size - keysBefore).toBeLessThan(answers.length);
    // Every key a call was signed with is a known secret (one still on its way to the gateway is not yet).
    for (const id of new Set(signed.map(call => call.accessKeyId!))) {
      const key = container.issued.get(id)!;
      expect(server.gateway.engine.secrets.scrub(`sent ${id} ${key.secretAccessKey} ${key.sessionToken}`)).toBe('sent [redacted] [redacted] [redacted]');
    }
  });
});
