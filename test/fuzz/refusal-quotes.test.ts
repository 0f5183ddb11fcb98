import fc from 'fast-check';
import { listPaths } from './body-arbitraries';
import { createFuzzTally } from './create-fuzz-tally';
import { endpointNamed, GENERATION_ENDPOINT_NAMES, type FuzzEndpoint } from './fuzz-endpoints';
import { exchange, startFuzzGateway, type FuzzGateway } from './fuzz-gateway';
import { fuzzRuns } from './fuzz-runs';
import { MEDIA_SEEDS } from './media-seeds';
import { describeExchange } from './check-response';
import type { RawRequest } from './send-raw-request';

const RUNS = fuzzRuns({ perEndpoint: 150 });
/** Each property sends its cases' 450 requests one after another: seconds alone, several times that on a busy machine. */
jest.setTimeout(90_000);

/** Routes of the example server, one per upstream protocol: each decodes the body, then encodes it for its upstream. */
const ROUTES = ['sim-via-responses', 'sim-via-messages', 'sim-via-chat'] as const;
/** Fields whose string values name things (quoted on purpose, bounded); they get only text wrapped in an array or object. */
const NAMING_FIELDS = new Set(['model', 'role', 'name', 'id', 'call_id', 'tool_use_id', 'tool_call_id']);

/** How the marker text goes where a value was: alone, after the value (a media type's parameters, an enum's junk), or wrapped. */
type Form = 'text' | 'after-value' | 'data-url' | 'in-array' | 'in-object';
const FORMS: readonly Form[] = ['text', 'after-value', 'data-url', 'in-array', 'in-object'];

/** Prompt-like text no log line or refusal could hold by chance: three to five random lower-case words. */
const marker = fc
  .array(fc.stringMatching(/^[a-z]{4,9}$/), { minLength: 3, maxLength: 5 })
  .map(words => `${words.join(' ')} prompt`);

type Case = { media: boolean; seed: number; pick: number; form: Form; marker: string };

/** Half the cases start from a media seed, whose parts (media types, URLs, documents) most refusals are about. */
const aCase: fc.Arbitrary<Case> = fc.record({
  media: fc.boolean(),
  seed: fc.nat(),
  pick: fc.nat(),
  form: fc.constantFrom(...FORMS),
  marker,
});

/**
 * Refusals name a field, and a value only when it is a name: prompt-like text put into any member
 * of a seed body, sent to each upstream protocol's route, is in no refusal and no log line.
 */
describe('fuzz: no refusal or log line repeats text a client sent', () => {
  let gateway: FuzzGateway;
  const tally = createFuzzTally('refusal quotes');
  const refusedByEndpoint = new Map<string, number>();
  beforeAll(async () => {
    gateway = await startFuzzGateway();
  });
  afterAll(async () => {
    console.log(`${tally.summary()}; refused per endpoint: ${JSON.stringify(Object.fromEntries(refusedByEndpoint))}`);
    await gateway.close(1_000);
    expect(tally.cases).toBe(RUNS.perEndpoint * GENERATION_ENDPOINT_NAMES.length);
    expect(tally.over500).toBe(0);
    // The generator must reach refusals: on each endpoint at least a fifth of its requests are refused.
    for (const name of GENERATION_ENDPOINT_NAMES) {
      const refused = refusedByEndpoint.get(name) ?? 0;
      expect({ name, refused: refused >= (RUNS.perEndpoint * ROUTES.length) / 5 }).toEqual({ name, refused: true });
    }
  });

  it.each(GENERATION_ENDPOINT_NAMES)('on %s', async name => {
    const endpoint = endpointNamed(name);
    await fc.assert(
      fc.asyncProperty(aCase, async fuzzCase => {
        tally.countCase();
        for (const route of ROUTES) {
          const request = requestFor(endpoint, fuzzCase, route, gateway.demoKey);
          const response = await exchange(gateway, tally, request, { endpoint: { ...endpoint, path: request.path } });
          const refused = response.status >= 400;
          if (refused) refusedByEndpoint.set(name, (refusedByEndpoint.get(name) ?? 0) + 1);
          const problems = [
            ...(refused && response.body.includes(fuzzCase.marker) ? ['the refusal repeats the text'] : []),
            ...gateway.logLines.filter(line => line.includes(fuzzCase.marker)).map(line => `a log line repeats the text: ${line.slice(0, 600)}`),
          ];
          if (problems.length > 0) throw new Error([...problems, describeExchange(request, response)].join('\n'));
        }
      }),
      { numRuns: RUNS.perEndpoint },
    );
  });
});

/** The request of a case for one route: the seed (the fuzzer's or a media one) with the marker placed. */
function requestFor(endpoint: FuzzEndpoint, fuzzCase: Case, route: (typeof ROUTES)[number], key: string): RawRequest {
  const seeds: readonly Record<string, unknown>[] = fuzzCase.media ? MEDIA_SEEDS[endpoint.name as keyof typeof MEDIA_SEEDS] : endpoint.seeds;
  const body = structuredClone(seeds[fuzzCase.seed % seeds.length]!) as Record<string, unknown>;
  const paths = listPaths(body as never);
  const path = paths[fuzzCase.pick % paths.length]!;
  const parent = path.slice(0, -1).reduce<Record<string | number, unknown>>((node, step) => node[step] as Record<string | number, unknown>, body);
  const field = path.at(-1)!;
  parent[field] = placed(fuzzCase, parent[field], NAMING_FIELDS.has(String(field)));
  const isGemini = endpoint.streamPath !== undefined;
  if (!isGemini) body.model = field === 'model' && path.length === 1 ? body.model : route;
  return {
    method: 'POST',
    path: isGemini ? `/v1beta/models/${route}:generateContent` : endpoint.path,
    headers: [...endpoint.authHeaders(key), ['content-type', 'application/json']],
    body: Buffer.from(JSON.stringify(body)),
  };
}

function placed({ form, marker }: Case, value: unknown, naming: boolean): unknown {
  if (naming && (form === 'text' || form === 'after-value' || form === 'data-url')) return [marker];
  switch (form) {
    case 'text':
      return marker;
    case 'after-value':
      return `${typeof value === 'string' ? value : JSON.stringify(value)}; ${marker}`;
    case 'data-url':
      return `data:${marker};base64,AAAA`;
    case 'in-array':
      return [marker];
    case 'in-object':
      return { text: marker };
  }
}
