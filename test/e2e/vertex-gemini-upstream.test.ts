import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVertexKind } from '@signalbox/kind-vertex';
import { startWithConfig } from '../errors/refusal-helpers';
import { protocolClients, type ClientProtocol } from '../helpers/ask-every-protocol';
import { GOOGLE_TOKEN_URL, startGoogleTokenEndpoint, type GoogleTokenEndpoint } from '../helpers/start-google-token-endpoint';
import { startGeminiUpstream, type GeminiUpstream } from '../helpers/start-gemini-upstream';
import type { TestGateway } from '../helpers/start-test-gateway';

const PROJECT = 'signalbox-vertex-test';
const REGION = 'europe-west4';
const CLIENTS: ClientProtocol[] = ['responses', 'chat', 'messages', 'gemini'];

/**
 * Gemini on Vertex AI: a `google-gemini` upstream of kind `vertex`, its calls at Google's publisher
 * model under a location's base URL with a Google OAuth access token (an emulated token endpoint
 * and a service-account key file the test writes), answered by the Gemini emulator.
 */
describe('Gemini on Vertex AI (kind vertex, protocol google-gemini)', () => {
  let google: GoogleTokenEndpoint;
  let upstream: GeminiUpstream;
  let server: TestGateway;
  let directory: string;

  beforeAll(async () => {
    google = await startGoogleTokenEndpoint(60);
    upstream = await startGeminiUpstream({ bearer: token => google.verify(token) });
    directory = mkdtempSync(join(tmpdir(), 'signalbox-vertex-gemini-'));
    const keyFile = join(directory, 'service-account.json');
    writeFileSync(keyFile, JSON.stringify(google.keyFile()));
    const toEmulator: typeof fetch = (input, init) => fetch(String(input) === GOOGLE_TOKEN_URL ? google.tokenURL : input, init);
    const baseURL = `${upstream.url}/v1/projects/${PROJECT}/locations/${REGION}`;
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: { ...config.upstreams, 'vertex-gemini': { kind: 'vertex', protocol: 'google-gemini', baseURL, auth: { type: 'google', keyFile } } },
        routes: [...config.routes, { model: 'gemini-on-vertex', interfaces: ['responses', 'messages', 'chat', 'gemini'], targets: [{ upstream: 'vertex-gemini', model: 'gemini-2.5-pro' }] }],
      }),
      { kinds: [createVertexKind({ transporterOptions: { fetchImplementation: toEmulator } })] },
    );
  });
  afterAll(async () => {
    server?.audit.remember([...google.issued, google.keyFile()['private_key']!]);
    await server?.close(1_000);
    await upstream?.close();
    await google?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it.each(CLIENTS)('serves a %s client, whole and streamed, with an access token and no key', async client => {
    const before = upstream.calls.length;
    for (const stream of [false, true]) expect(await protocolClients(server).ask(client, 'gemini-on-vertex', stream, 'Name a lighthouse')).toMatch(/^echo: Name a lighthouse/);
    const calls = upstream.calls.slice(before);
    expect(calls.map(call => [call.model, call.method, call.query])).toEqual([
      ['gemini-2.5-pro', 'generateContent', ''],
      ['gemini-2.5-pro', 'streamGenerateContent', '?alt=sse'],
    ]);
    for (const call of calls) {
      expect(call.key).toBeUndefined();
      expect(google.issued).toContain(call.authorization!.replace(/^Bearer /, ''));
    }
    expect(server.recentUsage().at(-1)).toMatchObject({ upstream: 'vertex-gemini', upstreamKind: 'vertex', status: 200 });
  });
});
