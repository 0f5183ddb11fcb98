import { randomBytes } from 'node:crypto';
import { startWithConfig } from '../errors/refusal-helpers';
import { protocolClients } from '../helpers/ask-every-protocol';
import { startBedrockEmulator, type BedrockEmulator } from '../helpers/start-bedrock-emulator';
import type { TestGateway } from '../helpers/start-test-gateway';

const MODEL_ID = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const KEY = { id: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`, secret: randomBytes(30).toString('base64') };
/** The AWS variables the SDK's default chain reads, set for this file and put back after. */
const AWS_VARIABLES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_EC2_METADATA_DISABLED'];

/**
 * An upstream made by the `bedrock` preset from its region alone, its base URL pointed at the
 * emulated Bedrock Runtime (which re-signs every call with `aws4`): it signs with SigV4 for the
 * preset's region, its keys from the AWS chain's environment variables, with nothing else set.
 */
describe('a Bedrock upstream made by its provider preset', () => {
  let bedrock: BedrockEmulator;
  let server: TestGateway;
  const saved = new Map(AWS_VARIABLES.map(name => [name, process.env[name]]));

  beforeAll(async () => {
    bedrock = await startBedrockEmulator({ keyOf: id => (id === KEY.id ? { secretAccessKey: KEY.secret } : undefined) });
    for (const name of AWS_VARIABLES) delete process.env[name];
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: KEY.id, AWS_SECRET_ACCESS_KEY: KEY.secret, AWS_EC2_METADATA_DISABLED: 'true' });
    server = await startWithConfig(config => ({
      ...config,
      upstreams: { ...config.upstreams, bedrock: { provider: 'bedrock', region: bedrock.region, baseURL: bedrock.baseURL } },
      routes: [...config.routes, { model: 'bedrock-preset', interfaces: ['responses', 'messages', 'chat'], targets: [{ upstream: 'bedrock', model: MODEL_ID }] }],
    }));
    server.audit.remember([KEY.id, KEY.secret]);
  });
  afterAll(async () => {
    server?.audit.remember((bedrock?.calls ?? []).map(call => call.signature ?? '').filter(Boolean));
    await server?.close(1_000);
    await bedrock?.close();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('serves a Messages and a Chat client, whole and streamed, every call signed for the region and accepted', async () => {
    const before = bedrock.calls.length;
    for (const client of ['messages', 'chat'] as const) {
      for (const stream of [false, true]) expect((await protocolClients(server).ask(client, 'bedrock-preset', stream, 'Name a harbour')).length).toBeGreaterThan(0);
    }
    const calls = bedrock.calls.slice(before);
    expect(calls.map(call => [call.path, call.scheme, call.accessKeyId, call.accepted])).toEqual(
      [false, true, false, true].map(stream => [`/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/${stream ? 'invoke-with-response-stream' : 'invoke'}`, 'sigv4', KEY.id, true]),
    );
    expect(server.recentUsage().at(-1)).toMatchObject({ upstream: 'bedrock', upstreamKind: 'bedrock', status: 200 });
  });
});
