import fc from 'fast-check';
import { buildHeaderRequest } from './build-header-request';
import { createFuzzTally } from './create-fuzz-tally';
import { endpointNamed, ENDPOINT_NAMES } from './fuzz-endpoints';
import { exchange, startFuzzGateway, type FuzzGateway } from './fuzz-gateway';
import { fuzzRuns } from './fuzz-runs';
import { headerPlan } from './header-arbitraries';
import { keyShapedSecret } from './secret-arbitraries';

const RUNS = fuzzRuns({ headers: 1500 });
// 1,500 exchanges: well within jest's 20 s default alone, not on a 2-core machine busy with other work.
jest.setTimeout(60_000);

describe('fuzz: random and mutated headers on every endpoint', () => {
  let gateway: FuzzGateway;
  const tally = createFuzzTally('headers');
  beforeAll(async () => {
    gateway = await startFuzzGateway();
  });
  afterAll(async () => {
    console.log(tally.summary());
    await gateway.close(1_000);
    expect(tally.cases).toBe(RUNS.headers);
    expect(tally.over500).toBe(0);
  });

  it('answers any header combination with < 500, a sound envelope, and no key in the answer or the logs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINT_NAMES),
        headerPlan,
        keyShapedSecret,
        keyShapedSecret,
        async (name, plan, secret, otherSecret) => {
          tally.countCase();
          const endpoint = endpointNamed(name);
          const secrets = { demoKey: gateway.demoKey, adminToken: gateway.adminToken, secret, otherSecret };
          const request = buildHeaderRequest(endpoint, plan, secrets);
          const response = await exchange(gateway, tally, request, {
            endpoint,
            secrets: [secret, otherSecret],
            loggedSecrets: [secret, otherSecret],
          });
          const sentRequestId = request.headers.find(
            ([header]) => header.toLowerCase() === 'x-request-id',
          )?.[1];
          if (sentRequestId !== undefined) expect(response.headers['x-request-id']).not.toBe(sentRequestId);
        },
      ),
      { numRuns: RUNS.headers },
    );
  });
});
