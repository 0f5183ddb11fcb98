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
 * Every method node's client can send, except CONNECT (node's server hands it to a `connect`
 * listener, never to the app) and QUERY (not accepted by llhttp in this node version).
 */
export const FUZZ_METHODS = METHODS.filter(method => method !== 'CONNECT' && method !== 'QUERY');

/** Characters node's client accepts in a request target (0x21–0xFF), without `?` and `#`. */
const pathCharacter = fc.oneof(
  fc.integer({ min: 0x21, max: 0x7e }).filter(code => code !== 0x3f && code !== 0x23 && code !== 0x2f),
  fc.integer({ min: 0xa0, max: 0xff }),
).map(code => String.fromCharCode(code));

const knownSegment = fc.constantFrom(
  'v1', 'V1', 'v2', 'responses', 'messages', 'Messages', 'chat', 'completions', 'models', 'admin', 'keys', 'accounts', 'balance',
  'healthz', '..', '.', '', '%2e%2e', '%2F', 'v1%2Fresponses', '%00', '%ff', '%', '%zz', '%E2%82', '%76%31', ';', '~', 'undefined', '__proto__',
  DEMO_KEY, OTHER_SECRET,
);

const segment = fc.oneof(
  { weight: 4, arbitrary: knownSegment },
  { weight: 1, arbitrary: fc.webSegment() },
  { weight: 1, arbitrary: fc.string({ unit: pathCharacter, maxLength: 12 }) },
);

const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?beta=true', '?', '?a=1&a=2', '?beta=true&beta=false', `?key=${OTHER_SECRET}`, `?api_key=${OTHER_SECRET}`, '?%zz=%zz', '?__proto__[x]=1'),
  fc.webQueryParameters().map(parameters => `?${parameters}`),
);

/** Paths near the real ones (`/v1/v1/…`, missing `/v1`, trailing slashes), random ones, and very long ones. */
const path: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/v1/responses', '/v1/messages', '/v1/chat/completions', '/v1/models', '/responses', '/messages', '/chat/completions', '/models', '/admin/keys', '/admin/accounts/x/balance', '/healthz'),
        fc.constantFrom('', '/', '//', '/x'),
        fc.constantFrom('', '/v1', '/v1/v1', '//', '/.', '/..', '/V1'),
      )
      .map(([known, suffix, prefix]) => `${prefix}${known}${suffix}`),
  },
  { weight: 3, arbitrary: fc.array(segment, { minLength: 1, maxLength: 6 }).map(segments => `/${segments.join('/')}`) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 12_000 }).map(length => `/v1/${'a'.repeat(length)}`) },
  { weight: 1, arbitrary: fc.webPath().map(webPath => (webPath.startsWith('/') ? webPath : `/${webPath}`)) },
);

/** The paths property's input. */
export const pathCase: fc.Arbitrary<PathCase> = fc.record({
  method: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('GET', 'POST') }, { weight: 2, arbitrary: fc.constantFrom(...FUZZ_METHODS) }),
  path: fc.tuple(path, query).map(([base, search]) => `${base}${search}`),
  caller: fc.constantFrom('none' as const, 'bearer' as const, 'anthropic' as const, 'both' as const, 'admin' as const),
  withBody: fc.boolean(),
});

/** The caller's headers for a path case (the console token only on safe methods: the fuzzer never changes accounts). */
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
      return ['GET', 'HEAD'].includes(pathCase.method) ? [['authorization', `Bearer ${ADMIN_TOKEN}`]] : bearer;
  }
}
