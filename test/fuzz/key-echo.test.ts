import fc from 'fast-check';
import { seedsOf } from './body-arbitraries';
import { createFuzzTally } from './create-fuzz-tally';
import {
  endpointNamed,
  ENDPOINT_NAMES,
  GENERATION_ENDPOINT_NAMES,
  type FuzzEndpoint,
} from './fuzz-endpoints';
import { exchange, startFuzzGateway, type FuzzGateway } from './fuzz-gateway';
import { fuzzRuns } from './fuzz-runs';
import {
  bodyWithSecret,
  secretAsFieldName,
  secretInBodyString,
  secretInHeader,
  secretInPathOrQuery,
  type SecretPlacement,
} from './key-echo-arbitraries';
import { issuedSecret } from './secret-arbitraries';
import type { RawRequest } from './send-raw-request';

const RUNS = fuzzRuns({ header: 300, bodyString: 600, fieldName: 200, pathOrQuery: 300 });
// Each property sends hundreds of requests: a few seconds alone, several times that on a busy 2-core machine.
jest.setTimeout(60_000);

describe('fuzz: a secret of any kind the product issues, sent anywhere, never comes back', () => {
  let gateway: FuzzGateway;
  const tally = createFuzzTally('key echo');
  beforeAll(async () => {
    gateway = await startFuzzGateway();
  });
  afterAll(async () => {
    console.log(tally.summary());
    await gateway.close(1_000);
    expect(tally.cases).toBe(RUNS.header + RUNS.bodyString + RUNS.fieldName + RUNS.pathOrQuery);
    expect(tally.over500).toBe(0);
  });

  /**
   * Sends a correctly authenticated request with the secret placed. A secret outside the body must
   * come back nowhere; one in the body in no refusal and no header; and none may reach the logs.
   */
  const run = async (name: FuzzEndpoint['name'], placement: SecretPlacement, secret: string) => {
    tally.countCase();
    const endpoint = endpointNamed(name);
    const request = buildRequest(endpoint, placement, secret, gateway.demoKey);
    const inBody = placement.kind === 'body-string' || placement.kind === 'body-field-name';
    await exchange(gateway, tally, request, {
      ...(request.path === endpoint.path && { endpoint }),
      ...(inBody ? { refusalSecrets: [secret] } : { secrets: [secret] }),
      loggedSecrets: [secret],
    });
  };

  it('in the Authorization, x-api-key or version header', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINT_NAMES), secretInHeader, issuedSecret, run),
      { numRuns: RUNS.header },
    );
  });

  it('in a string field of a valid body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...GENERATION_ENDPOINT_NAMES),
        secretInBodyString,
        issuedSecret,
        run,
      ),
      {
        numRuns: RUNS.bodyString,
      },
    );
  });

  it('as a field name in a valid body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...GENERATION_ENDPOINT_NAMES),
        secretAsFieldName,
        issuedSecret,
        run,
      ),
      {
        numRuns: RUNS.fieldName,
      },
    );
  });

  it('in the path or the query string', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINT_NAMES), secretInPathOrQuery, issuedSecret, run),
      { numRuns: RUNS.pathOrQuery },
    );
  });
});

/** A correctly authenticated request to `endpoint` (with its first seed body) and the secret where `placement` says. */
function buildRequest(
  endpoint: FuzzEndpoint,
  placement: SecretPlacement,
  secret: string,
  demoKey: string,
): RawRequest {
  const headers = new Map(endpoint.authHeaders(demoKey));
  let body: unknown = endpoint.method === 'POST' ? seedsOf(endpoint)[0] : undefined;
  let path = endpoint.path;
  switch (placement.kind) {
    case 'header':
      headers.set(
        placement.name,
        { bare: secret, bearer: `Bearer ${secret}`, basic: `Basic ${secret}`, padded: `  ${secret}  ` }[
          placement.format
        ],
      );
      break;
    case 'body-string':
    case 'body-field-name':
      body = bodyWithSecret(endpoint, placement, secret);
      break;
    case 'path':
      path = {
        end: `${endpoint.path}/${secret}`,
        // A segment of its own after the version segment (`/v1/<secret>/responses`, `/v1beta/<secret>/models/…`).
        middle: endpoint.path.replace(/^(\/[^/]+)/, `$1/${secret}`),
        only: `/${secret}`,
      }[placement.position];
      break;
    case 'query':
      path = `${endpoint.path}?${placement.as === 'name' ? `${secret}=1` : `${placement.parameter}=${secret}`}`;
      break;
  }
  if (body !== undefined) headers.set('content-type', 'application/json');
  return {
    method: endpoint.method,
    path,
    headers: [...headers],
    ...(body !== undefined && { body: Buffer.from(JSON.stringify(body)) }),
  };
}
