import fc from 'fast-check';
import { bodyBytes, fuzzBody } from './body-arbitraries';
import { createFuzzTally } from './create-fuzz-tally';
import { endpointNamed, ENDPOINT_NAMES, GENERATION_ENDPOINT_NAMES } from './fuzz-endpoints';
import { exchange, startFuzzGateway, type FuzzGateway } from './fuzz-gateway';
import { fuzzRuns } from './fuzz-runs';

const RUNS = fuzzRuns({ anyBody: 2000, validStreams: 200 });

describe('fuzz: random and mutated bodies on every endpoint', () => {
  let gateway: FuzzGateway;
  const tally = createFuzzTally('bodies');
  beforeAll(async () => {
    gateway = await startFuzzGateway();
  });
  afterAll(async () => {
    console.log(tally.summary());
    await gateway.close(1_000);
    expect(tally.cases).toBe(RUNS.anyBody + RUNS.validStreams);
    expect(tally.over500).toBe(0);
  });

  it('answers any body with < 500 and a sound answer (JSON envelope with the request id, or a valid success)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINT_NAMES), fuzzBody, async (name, body) => {
        tally.countCase();
        const endpoint = endpointNamed(name);
        await exchange(
          gateway,
          tally,
          {
            method: endpoint.method,
            path: endpoint.path,
            headers: [...endpoint.authHeaders(gateway.demoKey), ['content-type', 'application/json']],
            body: bodyBytes(endpoint, body),
          },
          { endpoint },
        );
      }),
      { numRuns: RUNS.anyBody },
    );
    // 2,000 exchanges over loopback: about 15 s on an idle 2-core machine, so jest's 20 s default is too tight under load.
  }, 60_000);

  it('streams every valid stream request (stream: true, or the streaming path) as a well-formed SSE stream', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...GENERATION_ENDPOINT_NAMES), fc.nat(), async (name, seed) => {
        tally.countCase();
        const endpoint = endpointNamed(name);
        const response = await exchange(
          gateway,
          tally,
          {
            method: 'POST',
            path: endpoint.streamPath ?? endpoint.path,
            headers: [
              ...endpoint.authHeaders(gateway.demoKey),
              ['content-type', 'application/json'],
              ['accept', 'text/event-stream'],
            ],
            body: bodyBytes(endpoint, { kind: 'valid', seed, stream: true }),
          },
          { endpoint },
        );
        expect(response.status).toBe(200);
      }),
      { numRuns: RUNS.validStreams },
    );
  });
});
