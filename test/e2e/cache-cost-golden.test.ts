import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SSEMessage } from '@signalbox/core';
import request from 'supertest';
import type { LoopbackServer } from '../helpers/listen-on-loopback';
import { authHeaders, geminiAuthHeaders, postForSSE } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { startUsageReplayUpstream, type ReplayedUsage } from '../helpers/start-usage-replay-upstream';

type JSONObject = Record<string, unknown>;
type Interface = 'messages' | 'responses' | 'chat' | 'gemini';

/**
 * Cache economics to the micro-unit, in every direction: a client of each interface calls a route
 * whose upstream speaks each protocol and reports 20,003 tokens read from the prompt cache and 3,000
 * written to it (Anthropic: 1,000 for 5 minutes and 2,000 for 1 hour; Gemini, whose implicit cache
 * bills no writes, none). Each row of GOLDEN says what
 * the client received as usage, what the request was charged, what the cache saved, and, per
 * upstream, the ledger row's token columns, as the usage API answers them; each runs as JSON and as
 * a stream, through the example server and a real upstream on loopback.
 */

/** Anthropic's published multipliers on a $3 input price: cache reads 0.1×, 5-minute writes 1.25×, 1-hour writes 2×. */
const PRICING = { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75, cacheWrite1hPerMillion: 6 };

/** What each upstream reports. Messages counts uncached input only; the OpenAI protocols and Gemini count cached tokens in the input. */
const REPORTED: Required<ReplayedUsage> = {
  messages: {
    usage: {
      input_tokens: 1234,
      cache_creation_input_tokens: 3000,
      cache_read_input_tokens: 20_003,
      cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
      output_tokens: 456,
      service_tier: 'standard',
    },
    // As the API's message_delta repeats them: cumulative counts, no cache_creation.
    deltaUsage: { input_tokens: 1234, cache_creation_input_tokens: 3000, cache_read_input_tokens: 20_003, output_tokens: 456 },
  },
  responses: {
    input_tokens: 24_237,
    input_tokens_details: { cached_tokens: 20_003, cache_write_tokens: 3000 },
    output_tokens: 456,
    output_tokens_details: { reasoning_tokens: 128 },
    total_tokens: 24_693,
  },
  chat: {
    prompt_tokens: 24_237,
    completion_tokens: 456,
    total_tokens: 24_693,
    prompt_tokens_details: { cached_tokens: 20_003, cache_write_tokens: 3000, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 128, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  },
  // Thoughts apart from the candidates; cached tokens among the prompt's.
  gemini: { promptTokenCount: 24_237, cachedContentTokenCount: 20_003, candidatesTokenCount: 328, thoughtsTokenCount: 128, totalTokenCount: 24_693 },
};

/** A Messages client of an OpenAI upstream: uncached input, both cache counts, no lifetime split to tell. */
const messagesTranslated = (thinking: number, written = 3000) => ({
  input_tokens: 24_237 - 20_003 - written,
  cache_creation_input_tokens: written,
  cache_read_input_tokens: 20_003,
  cache_creation: null,
  output_tokens: 456,
  output_tokens_details: { thinking_tokens: thinking },
  service_tier: null,
  inference_geo: null,
});
const responsesTranslated = (reasoning: number, written = 3000) => ({
  input_tokens: 24_237,
  input_tokens_details: { cached_tokens: 20_003, cache_write_tokens: written },
  output_tokens: 456,
  output_tokens_details: { reasoning_tokens: reasoning },
  total_tokens: 24_693,
});
const chatTranslated = (reasoning: number, written = 3000) => ({
  prompt_tokens: 24_237,
  completion_tokens: 456,
  total_tokens: 24_693,
  prompt_tokens_details: { cached_tokens: 20_003, cache_write_tokens: written },
  completion_tokens_details: { reasoning_tokens: reasoning },
});
/** A Gemini client: thoughts apart from the candidates, the cache's reads among the prompt's tokens, no writes to tell. */
const geminiTranslated = (thoughts: number) => ({
  promptTokenCount: 24_237,
  candidatesTokenCount: 456 - thoughts,
  totalTokenCount: 24_693,
  cachedContentTokenCount: 20_003,
  ...(thoughts > 0 && { thoughtsTokenCount: thoughts }),
});

/**
 * The ledger's token columns, per upstream. Writes an OpenAI upstream reports have no lifetime: all
 * are billed as 5-minute ones. Messages reports no reasoning count of its own.
 */
const LEDGER_TOKENS: Record<Interface, JSONObject> = {
  messages: { inputTokens: 24_237, cacheReadTokens: 20_003, cacheWriteTokens: 3000, cacheWrite5mTokens: 1000, cacheWrite1hTokens: 2000, outputTokens: 456, reasoningTokens: 0 },
  responses: { inputTokens: 24_237, cacheReadTokens: 20_003, cacheWriteTokens: 3000, cacheWrite5mTokens: 3000, cacheWrite1hTokens: 0, outputTokens: 456, reasoningTokens: 128 },
  chat: { inputTokens: 24_237, cacheReadTokens: 20_003, cacheWriteTokens: 3000, cacheWrite5mTokens: 3000, cacheWrite1hTokens: 0, outputTokens: 456, reasoningTokens: 128 },
  gemini: { inputTokens: 24_237, cacheReadTokens: 20_003, cacheWriteTokens: 0, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, outputTokens: 456, reasoningTokens: 128 },
};

// Charged, Messages upstream: 1,234 × 3 + 20,003 × 0.3 + 1,000 × 3.75 + 2,000 × 6 + 456 × 15 = 32,292.9 → 32,293.
// Charged, OpenAI upstreams: 1,234 × 3 + 20,003 × 0.3 + 3,000 × 3.75 + 456 × 15 = 27,792.9 → 27,793.
// Charged, Gemini upstream: 4,234 × 3 + 20,003 × 0.3 + 456 × 15 = 25,542.9 → 25,543.
// Saved: every input token at 3 (24,237 × 3 + 456 × 15 = 79,551) minus the charge.
//
// client       upstream      usage the client received        charged  saved
const GOLDEN: Array<[Interface, Interface, JSONObject, number, number]> = [
  ['messages', 'messages', REPORTED.messages.usage, 32_293, 47_258],
  ['messages', 'responses', messagesTranslated(128), 27_793, 51_758],
  ['messages', 'chat', messagesTranslated(128), 27_793, 51_758],
  ['responses', 'messages', responsesTranslated(0), 32_293, 47_258],
  ['responses', 'responses', REPORTED.responses, 27_793, 51_758],
  ['responses', 'chat', responsesTranslated(128), 27_793, 51_758],
  ['chat', 'messages', chatTranslated(0), 32_293, 47_258],
  ['chat', 'responses', chatTranslated(128), 27_793, 51_758],
  ['chat', 'chat', REPORTED.chat, 27_793, 51_758],
  ['messages', 'gemini', messagesTranslated(128, 0), 25_543, 54_008],
  ['responses', 'gemini', responsesTranslated(128, 0), 25_543, 54_008],
  ['chat', 'gemini', chatTranslated(128, 0), 25_543, 54_008],
  ['gemini', 'messages', geminiTranslated(0), 32_293, 47_258],
  ['gemini', 'responses', geminiTranslated(128), 27_793, 51_758],
  ['gemini', 'chat', geminiTranslated(128), 27_793, 51_758],
  ['gemini', 'gemini', REPORTED.gemini, 25_543, 54_008],
];

const PATHS: Record<Interface, (model: string, stream: boolean) => string> = {
  messages: () => '/v1/messages',
  responses: () => '/v1/responses',
  chat: () => '/v1/chat/completions',
  gemini: (model, stream) => `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
};

function bodyFor(client: Interface, model: string, stream: boolean): JSONObject {
  const turn = [{ role: 'user', content: 'Summarise the cached handbook.' }];
  if (client === 'messages') return { model, max_tokens: 4096, messages: turn, stream };
  if (client === 'responses') return { model, max_output_tokens: 4096, input: 'Summarise the cached handbook.', stream };
  if (client === 'gemini') return { contents: [{ role: 'user', parts: [{ text: 'Summarise the cached handbook.' }] }], generationConfig: { maxOutputTokens: 4096 } };
  return { model, max_completion_tokens: 4096, messages: turn, stream, ...(stream && { stream_options: { include_usage: true } }) };
}

/** The usage a client's SDK ends with on a stream: Messages overlays message_delta's non-null counts on message_start's. */
function streamedUsage(client: Interface, messages: readonly SSEMessage[]): unknown {
  const events = messages.filter(message => message.data !== '[DONE]').map(message => JSON.parse(message.data) as JSONObject);
  if (client === 'responses') return (events.find(event => event.type === 'response.completed')?.response as JSONObject).usage;
  if (client === 'chat') return events.findLast(event => event.usage)?.usage;
  if (client === 'gemini') return events.findLast(event => event.usageMetadata)?.usageMetadata;
  const start = events.find(event => event.type === 'message_start')!.message as JSONObject;
  const delta = events.find(event => event.type === 'message_delta')!.usage as JSONObject;
  return { ...(start.usage as JSONObject), ...Object.fromEntries(Object.entries(delta).filter(([, value]) => value !== null)) };
}

describe('cache costs to the micro-unit in every direction', () => {
  let upstream: LoopbackServer;
  let gateway: TestGateway;
  let directory: string;

  beforeAll(async () => {
    upstream = await startUsageReplayUpstream(REPORTED);
    directory = mkdtempSync(join(tmpdir(), 'signalbox-cache-cost-'));
    const configPath = join(directory, 'gateway.json');
    const upstreams = {
      messages: { protocol: 'anthropic-messages', baseURL: upstream.url },
      responses: { protocol: 'openai-responses', baseURL: `${upstream.url}/v1` },
      chat: { protocol: 'openai-chat', baseURL: `${upstream.url}/v1` },
      gemini: { protocol: 'google-gemini', baseURL: `${upstream.url}/v1beta` },
    };
    const routes = Object.keys(upstreams).map(name => ({
      model: `cached-via-${name}`,
      interfaces: ['messages', 'responses', 'chat', 'gemini'],
      targets: [{ upstream: name, model: 'upstream-model' }],
      pricing: PRICING,
    }));
    writeFileSync(configPath, JSON.stringify({ upstreams, routes }));
    gateway = await startTestGateway({ configPath });
  });
  afterAll(async () => {
    await gateway?.close(1_000);
    await upstream?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** The request's row as the usage API answers it, once the ledger has committed it. */
  async function ledgerRow(requestId: string): Promise<JSONObject> {
    for (let turn = 0; turn < 200; turn += 1) {
      const page = await request(gateway.url).get('/admin/usage?limit=50').set({ authorization: `Bearer ${gateway.adminToken}` }).expect(200);
      const row = (page.body.data as JSONObject[]).find(entry => entry.requestId === requestId);
      if (row) return row;
      await new Promise(resolve => setImmediate(resolve));
    }
    throw new Error(`no ledger row for ${requestId}`);
  }

  describe.each(['json', 'stream'] as const)('%s', mode => {
    it.each(GOLDEN)('a %s client of a %s upstream', async (client, upstreamProtocol, clientUsage, chargedMicros, savedMicros) => {
      const model = `cached-via-${upstreamProtocol}`;
      const url = `${gateway.url}${PATHS[client](model, mode === 'stream')}`;
      const body = bodyFor(client, model, mode === 'stream');
      const headers = client === 'gemini' ? geminiAuthHeaders(gateway.demoKey) : authHeaders[client](gateway.demoKey);
      let received: unknown;
      let requestId: string;
      if (mode === 'stream') {
        const answer = await postForSSE(url, headers, body);
        expect(answer.status).toBe(200);
        received = streamedUsage(client, answer.messages);
        requestId = answer.headers.get('x-request-id')!;
      } else {
        const answer = await request(url).post('').set(headers).send(body).expect(200);
        received = client === 'gemini' ? answer.body.usageMetadata : answer.body.usage;
        requestId = answer.headers['x-request-id']!;
      }
      expect(received).toEqual(clientUsage);
      expect(await ledgerRow(requestId)).toMatchObject({
        ...LEDGER_TOKENS[upstreamProtocol],
        stream: mode === 'stream',
        estimated: false,
        costMicros: chargedMicros,
        cost: chargedMicros / 1_000_000,
        uncoveredMicros: 0,
        cacheSavingsMicros: savedMicros,
      });
    });
  });
});
