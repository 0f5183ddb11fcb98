import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createVertexKind } from '@signalbox/kind-vertex';
import { startWithConfig } from '../../errors/refusal-helpers';
import { GOOGLE_TOKEN_URL, startGoogleTokenEndpoint, type GoogleTokenEndpoint } from '../../helpers/start-google-token-endpoint';
import type { TestGateway } from '../../helpers/start-test-gateway';
import { startVertexEmulator, type VertexEmulator } from '../../helpers/start-vertex-emulator';
import { createAgentSandbox, startEgressTrap, type AgentSandbox, type EgressTrap } from './agent-sandbox';
import { CLAUDE_RUN_TIMEOUT_MS, expectClaudeReadRoundTrip } from './claude-code-read-round-trip';

jest.setTimeout(CLAUDE_RUN_TIMEOUT_MS + 10_000);
const FILE_CONTENT = 'fjord-notes-7f3a: snow chains are in the boot';
const MODEL = 'claude-sonnet-4-5@20250929';

/**
 * The real Claude Code CLI (print mode, unmodified, sandboxed and offline as in
 * claude-code-cli.test.ts) through a route whose upstream is Google Vertex AI (kind `vertex`, an
 * emulated location), signing in with a service-account key file against an emulated Google token
 * endpoint. It completes a Read tool round trip, both turns streamed from `:streamRawPredict`.
 */
describe('Claude Code CLI through a Google Vertex AI upstream', () => {
  let google: GoogleTokenEndpoint;
  let vertex: VertexEmulator;
  let server: TestGateway;
  let trap: EgressTrap;
  let sandbox: AgentSandbox;

  beforeAll(async () => {
    google = await startGoogleTokenEndpoint(60);
    vertex = await startVertexEmulator({ project: 'signalbox-agents', region: 'europe-west1', verifyToken: token => google.verify(token) });
    sandbox = createAgentSandbox('signalbox-claude-code-vertex-');
    const keyFile = join(sandbox.config, 'service-account.json');
    writeFileSync(keyFile, JSON.stringify(google.keyFile()));
    writeFileSync(join(sandbox.cwd, 'notes.txt'), `${FILE_CONTENT}\n`);
    const toEmulator: typeof fetch = (input, init) => fetch(String(input) === GOOGLE_TOKEN_URL ? google.tokenURL : input, init);
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: { ...config.upstreams, vertex: { kind: 'vertex', protocol: 'anthropic-messages', baseURL: vertex.baseURL, auth: { type: 'google', keyFile } } },
        routes: [...config.routes, { model: 'vertex-claude', interfaces: ['messages'], targets: [{ upstream: 'vertex', model: MODEL }] }],
      }),
      { kinds: [createVertexKind({ transporterOptions: { fetchImplementation: toEmulator } })] },
    );
    trap = await startEgressTrap();
  });
  afterAll(async () => {
    server?.audit.remember([...google.issued, google.keyFile()['private_key']!]);
    await trap?.close();
    await server?.close(1_000);
    await vertex?.close();
    await google?.close();
    sandbox?.remove();
  });
  afterEach(() => expect(trap.attempts.splice(0)).toEqual([]));

  it('completes a Read tool round trip, each turn streamed from streamRawPredict with Claude Code’s betas', async () => {
    const before = vertex.served.length;
    await expectClaudeReadRoundTrip({ server, sandbox, trap, model: 'vertex-claude', fileContent: FILE_CONTENT });
    const calls = vertex.served.slice(before);
    expect(calls.map(call => [call.model, call.method, call.anthropicVersion])).toEqual([
      [MODEL, 'streamRawPredict', 'vertex-2023-10-16'],
      [MODEL, 'streamRawPredict', 'vertex-2023-10-16'],
    ]);
    for (const call of calls) expect(call.beta?.split(',')).toContain('claude-code-20250219');
    expect(vertex.tokens.every(token => token.accepted)).toBe(true);
  });
});
