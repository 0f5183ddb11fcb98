import fc from 'fast-check';
import { bodyBytes } from './body-arbitraries';
import { createFuzzTally } from './create-fuzz-tally';
import { FUZZ_ENDPOINTS } from './fuzz-endpoints';
import { exchange, startFuzzGateway, type FuzzGateway } from './fuzz-gateway';
import { fuzzRuns } from './fuzz-runs';
import { callerHeaders, pathCase, type PathCase } from './path-arbitraries';
import { fillPlaceholders, keyShapedSecret, type Secrets } from './secret-arbitraries';
import type { RawRequest } from './send-raw-request';

const RUNS = fuzzRuns({ paths: 1500 });
const NO_BODY_METHODS = new Set(['GET', 'HEAD']);
// 1,500 exchanges: well within jest's 20 s default alone, not beside lint and the type-check on 2 cores.
jest.setTimeout(60_000);

describe('fuzz: random paths and methods', () => {
  let gateway: FuzzGateway;
  const tally = createFuzzTally('paths');
  beforeAll(async () => {
    gateway = await startFuzzGateway();
  });
  afterAll(async () => {
    console.log(tally.summary());
    await gateway.close(1_000);
    expect(tally.cases).toBe(RUNS.paths);
    expect(tally.over500).toBe(0);
  });

  it('answers any method on any path with < 500 and a JSON envelope of the caller with a request id', async () => {
    await fc.assert(
      fc.asyncProperty(pathCase, keyShapedSecret, async (generated, otherSecret) => {
        tally.countCase();
        const secrets = {
          demoKey: gateway.demoKey,
          adminToken: gateway.adminToken,
          secret: otherSecret,
          otherSecret,
        };
        const request = buildPathRequest(generated, secrets);
        const endpoint = FUZZ_ENDPOINTS.find(
          candidate => candidate.method === request.method && candidate.path === request.path,
        );
        await exchange(gateway, tally, request, {
          ...(endpoint && { endpoint }),
          secrets: [otherSecret],
          loggedSecrets: [otherSecret],
        });
      }),
      { numRuns: RUNS.paths },
    );
  });
});

/** The raw request of a path case: the caller's headers and, where a body may go, a valid Responses body. */
function buildPathRequest(generated: PathCase, secrets: Secrets): RawRequest {
  const headers = callerHeaders(generated).map(([name, value]): [string, string] => [
    name,
    fillPlaceholders(value, secrets),
  ]);
  const withBody = generated.withBody && !NO_BODY_METHODS.has(generated.method);
  if (!withBody)
    return { method: generated.method, path: fillPlaceholders(generated.path, secrets), headers };
  return {
    method: generated.method,
    path: fillPlaceholders(generated.path, secrets),
    headers: [...headers, ['content-type', 'application/json']],
    body: bodyBytes(FUZZ_ENDPOINTS[0]!, { kind: 'valid', seed: 0, stream: false }),
  };
}
