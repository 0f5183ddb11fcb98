import { GatewayError } from '@signalbox/core';
import { createArrayFrameSink, createTestEngine, readFixture } from '../testing';

async function engineWithStream() {
  return createTestEngine({
    upstreams: { a: { protocol: 'anthropic-messages', answers: [{ body: readFixture('messages-text.sse'), chunkSize: 64 }] } },
    routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'a', model: 'a-model' }] }],
  });
}

describe('exchange.settledRecord', () => {
  it('resolves, for a caller that asked before the stream ended, with the record once the stream settles', async () => {
    const test = await engineWithStream();
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate({ model: 'client-model', input: 'Say hello', stream: true }, new AbortController().signal);
    const pending = exchange.settledRecord();
    if (output.kind !== 'stream') throw new Error('expected a stream');
    await output.pipe(createArrayFrameSink());
    const record = await pending;
    expect(record).toMatchObject({ requestId: exchange.requestId, status: 200, outcome: 'completed', upstream: 'a', attempts: 1 });
    // Asked again after the settlement: the same record at once.
    await expect(exchange.settledRecord()).resolves.toBe(record);
  });

  it('resolves for a refusal', async () => {
    const test = await engineWithStream();
    const exchange = test.engine.openExchange({ protocol: 'openai-chat' });
    exchange.refuse(new GatewayError({ code: 'API_KEY_MISSING', message: 'No API key.' }));
    await expect(exchange.settledRecord()).resolves.toMatchObject({ status: 401, errorCode: 'API_KEY_MISSING' });
  });

  it('is undefined for an exchange that ends without a record (a models list)', async () => {
    const test = await engineWithStream();
    const exchange = await test.open('openai-responses');
    expect(test.engine.listModels(exchange.principal!, exchange.codec)).toMatchObject({ object: 'list' });
    expect(exchange.settledRecord()).toBeUndefined();
  });
});
