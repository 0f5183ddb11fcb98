import { createSimulator } from './create-simulator';
import { waitUntil } from './testing/wait-until';

describe('simulator: the peak of requests in flight at once', () => {
  it('is the most requests open together, kept after they end, and restarts from those in flight on reset', async () => {
    const simulator = createSimulator();
    const { url } = await simulator.listen();
    const hang = () => {
      const controller = new AbortController();
      const done = fetch(`${url}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-1', input: '[[sim:hang]] wait' }),
        signal: controller.signal,
      }).catch(() => undefined);
      return { end: () => (controller.abort(), done) };
    };
    try {
      expect(simulator.peakActive()).toBe(0);
      const requests = [hang(), hang(), hang()];
      await waitUntil(() => simulator.stats().active === 3);
      expect(simulator.peakActive()).toBe(3);
      await requests[0]!.end();
      await waitUntil(() => simulator.stats().active === 2);
      expect(simulator.peakActive()).toBe(3);
      simulator.resetPeakActive();
      expect(simulator.peakActive()).toBe(2);
      await Promise.all(requests.slice(1).map(request => request.end()));
      await waitUntil(() => simulator.stats().active === 0);
      simulator.resetPeakActive();
      expect(simulator.peakActive()).toBe(0);
    } finally {
      await simulator.close();
    }
  });
});
