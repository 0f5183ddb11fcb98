import { bedrockKind } from '@signalbox/kind-bedrock';
import { createHash, randomBytes } from 'node:crypto';
import { startBedrockEmulator, type BedrockEmulator } from './start-bedrock-emulator';

const KEY = { id: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`, secret: randomBytes(30).toString('base64') };
const MODEL_ID = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
/** The AWS variables the SDK's default chain reads, set for this file and put back after. */
const AWS_VARIABLES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_EC2_METADATA_DISABLED', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE'];

/** The emulator's own checks, met with calls the Bedrock kind signs (the gateway's signer), then changed. */
describe('startBedrockEmulator', () => {
  let bedrock: BedrockEmulator;
  const saved = new Map(AWS_VARIABLES.map(name => [name, process.env[name]]));

  beforeAll(async () => {
    for (const name of AWS_VARIABLES) delete process.env[name];
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: KEY.id, AWS_SECRET_ACCESS_KEY: KEY.secret, AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: '/nonexistent/config', AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials' });
    bedrock = await startBedrockEmulator({ keyOf: id => (id === KEY.id ? { secretAccessKey: KEY.secret } : undefined) });
  });

  afterAll(async () => {
    await bedrock.close();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** One `invoke` call signed by the Bedrock kind: its URL, body and headers, signature included. */
  async function signedCall() {
    const kind = bedrockKind.open({ upstream: 'bedrock', baseURL: bedrock.baseURL, protocol: 'anthropic-messages', environment: process.env, now: Date.now, rememberSecret() {} });
    const credential = kind.openCredential({ name: 'default', auth: { type: 'aws', region: bedrock.region } });
    const call = { model: MODEL_ID, stream: false };
    const url = `${bedrock.baseURL}${kind.path!(call)}`;
    const body = JSON.stringify(kind.prepareBody!({ max_tokens: 64, messages: [{ role: 'user', content: 'Name a plain lighthouse' }] }, call));
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(await credential.authorize!({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body })) };
    return { url, body, headers };
  }

  const send = ({ url, body, headers }: { url: string; body: string; headers: Record<string, string> }) => fetch(url, { method: 'POST', headers, body });

  it('accepts a signed call, and refuses it once its body is changed, even with a body hash that matches the new body', async () => {
    const call = await signedCall();
    expect(call.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(call.body).digest('hex'));
    expect((await send(call)).status).toBe(200);

    const changed = call.body.replace('plain', 'clear');
    const refused = await send({ ...call, body: changed });
    expect([refused.status, refused.headers.get('x-amzn-errortype')?.split(':')[0]]).toEqual([403, 'InvalidSignatureException']);

    const rehashed = await send({ ...call, body: changed, headers: { ...call.headers, 'x-amz-content-sha256': createHash('sha256').update(changed).digest('hex') } });
    expect([rehashed.status, rehashed.headers.get('x-amzn-errortype')?.split(':')[0]]).toEqual([403, 'InvalidSignatureException']);
    expect(bedrock.calls.map(call => call.accepted)).toEqual([true, false, false]);
  });
});
