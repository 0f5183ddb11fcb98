import type { UpstreamKindOpening } from '@signalbox/core';
import { createVertexKind, VERTEX_ANTHROPIC_VERSION } from './vertex-kind';

const opening: UpstreamKindOpening = {
  upstream: 'vertex',
  baseURL: 'https://us-east5-aiplatform.googleapis.com/v1/projects/acme/locations/us-east5',
  protocol: 'anthropic-messages',
  environment: {},
  now: () => 0,
  rememberSecret: () => undefined,
};

describe('the vertex kind', () => {
  const kind = createVertexKind();
  const opened = kind.open(opening);

  it('calls the publisher model at rawPredict, or streamRawPredict for a streamed answer, keeping the version @', () => {
    expect(opened.path?.({ model: 'claude-sonnet-4-5@20250929', stream: false })).toBe('/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict');
    expect(opened.path?.({ model: 'claude-haiku-4-5@20251001', stream: true })).toBe('/publishers/anthropic/models/claude-haiku-4-5@20251001:streamRawPredict');
    expect(opened.path?.({ model: 'a/b?c', stream: false })).toBe('/publishers/anthropic/models/a%2Fb%3Fc:rawPredict');
  });

  it('sends the Messages body without its model and with the Vertex API version', () => {
    const body = { model: 'claude-sonnet-4-5@20250929', max_tokens: 8, stream: true, messages: [{ role: 'user', content: 'Hi' }] };
    expect(opened.prepareBody?.(body, { model: body.model, stream: true })).toEqual({
      anthropic_version: VERTEX_ANTHROPIC_VERSION,
      max_tokens: 8,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
  });

  it("calls Google's publisher model for Gemini at generateContent, or streamGenerateContent in SSE, its body as the codec wrote it", () => {
    const gemini = kind.open({ ...opening, protocol: 'google-gemini' });
    expect(kind.protocols).toContain('google-gemini');
    expect(gemini.path?.({ model: 'gemini-2.5-pro', stream: false })).toBe('/publishers/google/models/gemini-2.5-pro:generateContent');
    expect(gemini.path?.({ model: 'gemini-2.5-flash@001', stream: true })).toBe('/publishers/google/models/gemini-2.5-flash@001:streamGenerateContent?alt=sse');
    expect(gemini.prepareBody).toBeUndefined();
  });

  it('accepts Google auth settings and names what is wrong in others', () => {
    expect(kind.checkAuth(undefined)).toEqual([]);
    expect(kind.checkAuth({ type: 'google', keyFile: '/etc/signalbox/vertex.json' })).toEqual([]);
    expect(kind.checkAuth({ type: 'entra' })).toEqual(['type: Invalid input: expected "google"']);
    expect(kind.checkAuth({ type: 'google', privateKey: 'x' })).toEqual(['Unrecognized key: "privateKey"']);
  });

  it('takes out a pooled credential whose key file variable is unset', () => {
    expect(opened.openCredential({ name: 'team-a', apiKeyEnv: 'VERTEX_TEAM_A_KEY_FILE' })).toMatchObject({ missing: true, secrets: [] });
  });
});
