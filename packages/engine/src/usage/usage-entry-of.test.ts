import type { UsageRecord } from './usage-record';
import { usageEntryOf } from './usage-entry-of';

const refused: UsageRecord = {
  requestId: 'req_1',
  startedAt: 1_767_225_600_000,
  keyId: undefined,
  keyPrefix: undefined,
  accountId: undefined,
  model: 'client-model',
  protocol: 'openai-chat',
  upstream: undefined,
  upstreamCredential: undefined,
  upstreamKind: undefined,
  upstreamModel: undefined,
  upstreamProtocol: undefined,
  upstreamRequestId: undefined,
  stream: false,
  status: 401,
  outcome: 'error',
  errorCode: 'INVALID_API_KEY',
  finishReason: undefined,
  usage: undefined,
  estimated: false,
  costMicros: 0,
  uncoveredMicros: 0,
  cacheSavingsMicros: 0,
  attempts: 0,
  latencyMs: 3,
  timeToFirstByteMs: undefined,
  warnings: [],
};

describe('usageEntryOf', () => {
  it('leaves the absent facts out of the row (no key holds undefined) and counts unreported tokens as 0', () => {
    const entry = usageEntryOf(refused);
    expect(entry).toStrictEqual({
      requestId: 'req_1',
      time: 1_767_225_600_000,
      model: 'client-model',
      errorCode: 'INVALID_API_KEY',
      protocol: 'openai-chat',
      stream: false,
      status: 401,
      outcome: 'error',
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite5mTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
      estimated: false,
      cacheSavingsMicros: 0,
      latencyMs: 3,
      attempts: 0,
      warnings: [],
    });
    expect(Object.keys(entry).slice(0, 4)).toEqual(['requestId', 'time', 'model', 'errorCode']);
  });

  it('keeps every fact a served request has, the finish reason as its unified value', () => {
    const entry = usageEntryOf({
      ...refused,
      keyId: 'key_1',
      keyPrefix: 'sbx-AbCdEfGh',
      accountId: 'acct_1',
      upstream: 'simulator',
      upstreamCredential: 'team-b',
      upstreamModel: 'sim-1',
      upstreamProtocol: 'openai-chat',
      upstreamRequestId: 'chatcmpl_1',
      status: 200,
      outcome: 'completed',
      errorCode: undefined,
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: 12, outputTokens: 48, cacheReadTokens: undefined, cacheWriteTokens: undefined, cacheWrite1hTokens: undefined, reasoningTokens: undefined },
      timeToFirstByteMs: 95,
      attempts: 1,
      traceId: '0af7651916cd43dd8448eb211c80319c',
    });
    expect(entry).toMatchObject({
      upstreamRequestId: 'chatcmpl_1',
      accountId: 'acct_1',
      keyId: 'key_1',
      keyPrefix: 'sbx-AbCdEfGh',
      upstream: 'simulator',
      upstreamCredential: 'team-b',
      upstreamModel: 'sim-1',
      upstreamProtocol: 'openai-chat',
      finishReason: 'stop',
      timeToFirstByteMs: 95,
      inputTokens: 12,
      outputTokens: 48,
      cacheReadTokens: 0,
      traceId: '0af7651916cd43dd8448eb211c80319c',
    });
    expect('errorCode' in entry).toBe(false);
  });

  it('splits the cache writes by lifetime (writes not reported as 1-hour ones are 5-minute ones) and keeps what the cache saved', () => {
    const usage = { inputTokens: 1000, outputTokens: 10, cacheReadTokens: 600, cacheWriteTokens: 300, cacheWrite1hTokens: 200, reasoningTokens: undefined };
    expect(usageEntryOf({ ...refused, usage, cacheSavingsMicros: -150 })).toMatchObject({
      inputTokens: 1000,
      cacheReadTokens: 600,
      cacheWriteTokens: 300,
      cacheWrite5mTokens: 100,
      cacheWrite1hTokens: 200,
      cacheSavingsMicros: -150,
    });
    const unsplit = { ...usage, cacheWrite1hTokens: undefined };
    expect(usageEntryOf({ ...refused, usage: unsplit })).toMatchObject({ cacheWriteTokens: 300, cacheWrite5mTokens: 300, cacheWrite1hTokens: 0 });
  });
});
