import { METHODS } from 'node:http';
import fc from 'fast-check';
import { ADMIN_TOKEN, DEMO_KEY, OTHER_SECRET } from './secret-arbitraries';

/** One request of the paths property: method, raw path (with query), and how the caller authenticates. */
export type PathCase = {
  method: string;
  path: string;
  caller: 'none' | 'bearer' | 'anthropic' | 'both' | 'admin';
  withBody: boolean;
};

/**
 * Every method node's HTTP stack knows, except CONNECT: node's server hands CONNECT to a `connect`
 * listener and, without one, closes the socket; it never reaches an Express app.
 */
export const FUZZ_METHODS = METHODS.filter(method => method !== 'CONNECT');

/**
 * Characters node's client accepts in a request target (0x21–0xFF), without `/`, `?` and `#`;
 * node's parser refuses raw bytes ≥ 0x80, so those reach the client-error listener.
 */
const pathCharacter = fc
  .oneof(
    fc.integer({ min: 0x21, max: 0x7e }).filter(code => code !== 0x3f && code !== 0x23 && code !== 0x2f),
    fc.integer({ min: 0xa0, max: 0xff }),
  )
  .map(code => String.fromCharCode(code));

const knownSegment = fc.constantFrom(
  'v1',
  'V1',
  'v2',
  'responses',
  'messages',
  'Messages',
  'chat',
  'completions',
  'models',
  'admin',
  'keys',
  'accounts',
  'balance',
  'healthz',
  '..',
  '.',
  '',
  '%2e%2e',
  '%2F',
  'v1%2Fresponses',
  '%00',
  '%ff',
  '%',
  '%zz',
  '%E2%82',
  '%76%31',
  ';',
  '~',
  'undefined',
  '__proto__',
  OTHER_SECRET,
);

const segment = fc.oneof(
  { weight: 4, arbitrary: knownSegment },
  { weight: 1, arbitrary: fc.webSegment() },
  { weight: 1, arbitrary: fc.string({ unit: pathCharacter, maxLength: 12 }) },
);

const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '?beta=true',
    '?',
    '?a=1&a=2',
    '?beta=true&beta=false',
    `?key=${OTHER_SECRET}`,
    `?api_key=${OTHER_SECRET}`,
    '?%zz=%zz',
    '?__proto__[x]=1',
  ),
  fc.webQueryParameters().map(parameters => `?${parameters}`),
);

/** Paths near the real ones (`/v1/v1/…`, missing `/v1`, trailing slashes), random ones, and very long ones. */
const path: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          '/v1/responses',
          '/v1/messages',
          '/v1/chat/completions',
          '/v1/models',
          '/responses',
          '/messages',
          '/chat/completions',
          '/models',
          '/admin/keys',
          '/admin/accounts/x/balance',
          '/healthz',
        ),
        fc.constantFrom('', '/', '//', '/x'),
        fc.constantFrom('', '/v1', '/v1/v1', '//', '/.', '/..', '/V1'),
      )
      .map(([known, suffix, prefix]) => `${prefix}${known}${suffix}`),
  },
  {
    weight: 3,
    arbitrary: fc.array(segment, { minLength: 1, maxLength: 6 }).map(segments => `/${segments.join('/')}`),
  },
  // Up to well over node's 16 KiB limit for the request line and headers.
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 40_000 }).map(length => `/v1/${'a'.repeat(length)}`) },
  { weight: 1, arbitrary: fc.webPath().map(webPath => (webPath.startsWith('/') ? webPath : `/${webPath}`)) },
);

const caller = fc.constantFrom(
  'none' as const,
  'bearer' as const,
  'anthropic' as const,
  'both' as const,
  'admin' as const,
);

/** The real endpoints with their own method, varied only by a trailing slash, letter case and the query. */
const realEndpoint: fc.Arbitrary<PathCase> = fc
  .record({
    endpoint: fc.constantFrom(
      ['POST', '/v1/responses'],
      ['POST', '/v1/messages'],
      ['POST', '/v1/chat/completions'],
      ['GET', '/v1/models'],
      ['GET', '/admin/keys'],
      ['GET', '/admin/accounts'],
      ['PATCH', '/admin/keys/%zz'],
      ['POST', '/admin/accounts/%zz/balance'],
      ['GET', '/healthz'],
    ),
    variant: fc.constantFrom('', '/', 'upper'),
    query,
    caller,
    withBody: fc.boolean(),
  })
  .map(({ endpoint: [method, base], variant, query: search, caller: who, withBody }) => ({
    method,
    path: `${variant === 'upper' ? base.toUpperCase() : `${base}${variant}`}${search}`,
    caller: who,
    withBody,
  }));

/**
 * The paths property's input: mostly anything, a third the real endpoints. While their bugs are
 * open, no HTTP parse error of an Anthropic-looking caller (it gets the OpenAI envelope) and none
 * of a HEAD request (its answer carries a body).
 */
export const pathCase: fc.Arbitrary<PathCase> = fc
  .oneof(
    {
      weight: 2,
      arbitrary: fc.record({
        method: fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom('GET', 'POST') },
          { weight: 2, arbitrary: fc.constantFrom(...FUZZ_METHODS) },
        ),
        path: fc.tuple(path, query).map(([base, search]) => `${base}${search}`),
        caller,
        withBody: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: realEndpoint },
  );

/**
 * The caller's headers for a path case. The console token opens the admin API; the fuzzer cannot
 * change an account with it (it never knows a real account or key id).
 */
export function callerHeaders(pathCase: PathCase): Array<[string, string]> {
  const bearer: Array<[string, string]> = [['authorization', `Bearer ${DEMO_KEY}`]];
  const anthropic: Array<[string, string]> = [
    ['x-api-key', DEMO_KEY],
    ['anthropic-version', '2023-06-01'],
  ];
  switch (pathCase.caller) {
    case 'none':
      return [];
    case 'bearer':
      return bearer;
    case 'anthropic':
      return anthropic;
    case 'both':
      return [...bearer, ...anthropic];
    case 'admin':
      return [['authorization', `Bearer ${ADMIN_TOKEN}`]];
  }
}
