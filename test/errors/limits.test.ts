import type { KeyLimits } from '@signalbox/accounts';
import { DEFAULT_QUEUE_TIMEOUT_MS } from '@signalbox/engine';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import {
  COMPLETED_EVENT,
  createInterfaceClient,
  createKey,
  drain,
  eventName,
  expectAnswered,
  expectRefusal,
  INTERFACES,
  promptBody,
  refusalOf,
  sleep,
  type InterfaceName,
} from './refusal-helpers';

const MODEL = 'sim-via-messages';
/**
 * A stream that holds its slot for about 0.5 s (16 tokens, 30 ms apart): long enough for the next
 * request to arrive while it runs, and for a 200 ms pause after its fourth event.
 */
const SLOW_PROMPT = '[[sim:slow=30]] [[sim:tokens=16]] a slow answer please';
const PROMPT = 'A quick answer please';

/** Polls `condition` every few milliseconds (for up to 5 s) until it holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let polls = 0; polls < 500 && !condition(); polls += 1) await sleep(10);
  expect(condition()).toBe(true);
}

describe('429: the gateway’s own per-key limits, on the gateway’s clock', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(2_000));

  const keyWith = (limits: KeyLimits) => createKey(server, { key: { limits } });
  const client = (name: InterfaceName, key: string) => createInterfaceClient(server, name, { key });

  describe.each(INTERFACES)('on the %s interface', name => {
    it('refuses the third request of a 2-per-60 s key: 429 RATE_LIMITED with a Retry-After that counts down the window, and admits again when it ends', async () => {
      const key = await keyWith({ requests: 2, windowSeconds: 60 });
      const sdk = client(name, key);
      await sdk.create(promptBody(name, MODEL, PROMPT));
      await sdk.create(promptBody(name, MODEL, PROMPT));
      const upstreamCalls = server.simulator.stats().requests;
      const first = await expectRefusal(
        server,
        sdk,
        await refusalOf(sdk.create(promptBody(name, MODEL, PROMPT))),
        { status: 429, code: 'RATE_LIMITED', message: /2 requests per 60 seconds/ },
        key,
      );
      server.clock.advance(30_000);
      const later = await expectRefusal(
        server,
        sdk,
        await refusalOf(sdk.create(promptBody(name, MODEL, PROMPT))),
        { status: 429, code: 'RATE_LIMITED' },
        key,
      );
      expect(server.simulator.stats().requests).toBe(upstreamCalls);
      expect(first.retryAfter).toBeGreaterThanOrEqual(55);
      expect(first.retryAfter).toBeLessThanOrEqual(60);
      // 30 s later by the gateway's clock (a second more when the real milliseconds between cross a boundary).
      expect(later.retryAfter).toBeGreaterThanOrEqual(first.retryAfter! - 31);
      expect(later.retryAfter).toBeLessThanOrEqual(first.retryAfter! - 30);
      server.clock.advance(later.retryAfter! * 1_000);
      expectAnswered(sdk, await sdk.create(promptBody(name, MODEL, PROMPT)), MODEL);
    });

    it('refuses a request whose tokens no longer fit the window: 429 RATE_LIMITED (tokens) with the window’s Retry-After', async () => {
      const key = await keyWith({ tokens: 100, windowSeconds: 60 });
      const sdk = client(name, key);
      const prompt = `${'token '.repeat(34)}`; // about 50 estimated tokens; the answer adds 64 more
      await sdk.create(promptBody(name, MODEL, prompt));
      const refusal = await expectRefusal(
        server,
        sdk,
        await refusalOf(sdk.create(promptBody(name, MODEL, prompt))),
        { status: 429, code: 'RATE_LIMITED', message: /[Tt]oken/ },
        key,
      );
      expect(refusal.retryAfter).toBeGreaterThanOrEqual(55);
      expect(refusal.retryAfter).toBeLessThanOrEqual(60);
    });

    it('refuses a second request while a slow stream holds the only slot: 429 CONCURRENCY_LIMITED', async () => {
      // No queue of its own: the embedded default (256 waiting) would otherwise apply, member by member.
      const key = await keyWith({ concurrency: 1, queueSize: 0 });
      const running = await client(name, key).stream(promptBody(name, MODEL, SLOW_PROMPT));
      const sdk = client(name, key);
      const refusal = await expectRefusal(
        server,
        sdk,
        await refusalOf(sdk.create(promptBody(name, MODEL, PROMPT))),
        { status: 429, code: 'CONCURRENCY_LIMITED' },
        key,
      );
      expect(refusal.retryAfter).toBeGreaterThanOrEqual(1);
      expect(await drain(running)).toContain(COMPLETED_EVENT[name]);
      expectAnswered(sdk, await sdk.create(promptBody(name, MODEL, PROMPT)), MODEL);
    });

    it('refuses a third request when one runs and one waits in a queue of 1: 429 QUEUE_FULL, Retry-After counting the queue', async () => {
      const key = await keyWith({ concurrency: 1, queueSize: 1 });
      const running = await client(name, key).stream(promptBody(name, MODEL, SLOW_PROMPT));
      const queuedClient = client(name, key);
      const queued = queuedClient.create(promptBody(name, MODEL, PROMPT));
      await until(() => server.clock.waiting().includes(DEFAULT_QUEUE_TIMEOUT_MS));
      const sdk = client(name, key);
      const refusal = await expectRefusal(
        server,
        sdk,
        await refusalOf(sdk.create(promptBody(name, MODEL, PROMPT))),
        { status: 429, code: 'QUEUE_FULL' },
        key,
      );
      expect(refusal.retryAfter).toBeGreaterThanOrEqual(2); // one slot to free, then the one waiting ahead
      expect(await drain(running)).toContain(COMPLETED_EVENT[name]);
      expectAnswered(queuedClient, await queued, MODEL);
    });

    it('refuses a queued request whose queue wait runs out on the gateway’s clock: 429 CONCURRENCY_LIMITED', async () => {
      // A minute's queue wait, never waited out: the test moves the gateway's clock past it.
      const key = await keyWith({ concurrency: 1, queueSize: 1, queueTimeoutMs: 60_000 });
      const running = await client(name, key).stream(promptBody(name, MODEL, SLOW_PROMPT));
      const sdk = client(name, key);
      let answered = false;
      const refused = refusalOf(sdk.create(promptBody(name, MODEL, PROMPT))).finally(() => (answered = true));
      await until(() => server.clock.waiting().includes(60_000));
      expect(answered).toBe(false);
      server.clock.advance(60_000);
      await expectRefusal(server, sdk, await refused, { status: 429, code: 'CONCURRENCY_LIMITED', message: /60000 ms/ }, key);
      expect(await drain(running)).toContain(COMPLETED_EVENT[name]);
    });

    it('holds a queued stream’s headers until it gets the slot, then streams it normally', async () => {
      const key = await keyWith({ concurrency: 1, queueSize: 1 });
      const first = await client(name, key).stream(promptBody(name, MODEL, SLOW_PROMPT));
      const second = client(name, key);
      let secondHeadersArrived = false;
      const secondStream = second.stream(promptBody(name, MODEL, PROMPT));
      void secondStream.then(() => (secondHeadersArrived = true));
      const seen: string[] = [];
      let firstTerminalAt = Number.NaN;
      let headersSeenMidway: boolean | undefined;
      for await (const event of first) {
        const type = eventName(event);
        seen.push(type);
        if (seen.length === 4) {
          await sleep(200);
          headersSeenMidway = secondHeadersArrived;
        }
        if (type === COMPLETED_EVENT[name]) firstTerminalAt = performance.now();
      }
      expect(headersSeenMidway).toBe(false);
      expect(seen).toContain(COMPLETED_EVENT[name]);
      const events = await drain(await secondStream);
      expect(second.last().headersAt).toBeGreaterThan(firstTerminalAt);
      expect(second.last().status).toBe(200);
      expect(events).toContain(COMPLETED_EVENT[name]);
    });
  });
});
