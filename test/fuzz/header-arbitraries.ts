import fc from 'fast-check';
import { ADMIN_TOKEN, DEMO_KEY, OTHER_SECRET, SECRET } from './secret-arbitraries';

/** One controlled header: as a correct client sends it, left out, or these lines (two or more = duplicated). */
export type HeaderChoice = { mode: 'correct' } | { mode: 'absent' } | { mode: 'lines'; values: string[] };

/** How the body is encoded on the wire. */
export type BodyEncoding =
  | { kind: 'identity' }
  | { kind: 'compressed'; encoding: 'gzip' | 'deflate' | 'br' }
  | { kind: 'corrupt'; encoding: string; bytes: Uint8Array }
  | { kind: 'label-only'; encoding: string };

/** Everything the headers property varies about one request. */
export type HeaderPlan = {
  authorization: HeaderChoice;
  apiKey: HeaderChoice;
  version: HeaderChoice;
  providerVersion: HeaderChoice;
  contentType: HeaderChoice;
  encoding: BodyEncoding;
  extras: Array<[string, string]>;
  /** `shorter`: Content-Length below the real length (the rest trails the request). */
  length: 'exact' | 'shorter';
  stream: boolean;
};

/** Header-safe text (what node's client lets through): tab and visible Latin-1, no CR/LF/NUL. */
const headerText: fc.Arbitrary<string> = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0xa0, max: 0xff }))
    .map(code => String.fromCharCode(code)),
  maxLength: 60,
});

const authorizationValue = fc.oneof(
  fc.constantFrom(
    `Bearer ${DEMO_KEY}`,
    `bearer ${DEMO_KEY}`,
    `BEARER   ${DEMO_KEY}   `,
    `Bearer\t${DEMO_KEY}`,
    `Bearer ${DEMO_KEY} extra`,
    `Bearer ${DEMO_KEY}${DEMO_KEY}`,
    `Basic ${DEMO_KEY}`,
    DEMO_KEY,
    `Bearer ${SECRET}`,
    SECRET,
    `Bearer ${ADMIN_TOKEN}`,
    'Bearer',
    'Bearer ',
    '',
    ' ',
    'Bearer sbx-',
  ),
  headerText,
  headerText.map(text => `Bearer ${text}`),
);

const apiKeyValue = fc.oneof(
  fc.constantFrom(
    DEMO_KEY,
    ` ${DEMO_KEY} `,
    `${DEMO_KEY},${DEMO_KEY}`,
    SECRET,
    ADMIN_TOKEN,
    `Bearer ${DEMO_KEY}`,
    '',
    ' ',
    'sbx-',
  ),
  headerText,
);

const VERSION_VALUES = [
  '2023-06-01',
  ' 2023-06-01 ',
  '2023-06-01,2023-06-01',
  '2023-01-01',
  '2026-10-21',
  '2023-6-1',
  '',
  ' ',
  'latest',
  OTHER_SECRET,
  DEMO_KEY,
];
const versionValue = fc.oneof(fc.constantFrom(...VERSION_VALUES), headerText);

const contentTypeValue = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'APPLICATION/JSON',
    'application/json; charset=utf-16',
    'application/json; charset=utf-16le',
    'application/json; charset=latin1',
    'application/json; charset=utf-7',
    'application/json; charset=nonsense',
    'application/json; charset=',
    'application/json; boundary=x',
    'application/vnd.api+json',
    'application/merge-patch+json',
    'text/json',
    'text/plain',
    'text/plain; charset=utf-8',
    'multipart/form-data; boundary=----x',
    'application/x-www-form-urlencoded',
    'application/octet-stream',
    '*/*',
    '',
    ';;;',
    'application/',
  ),
  headerText,
);

const headerChoice = (values: fc.Arbitrary<string>): fc.Arbitrary<HeaderChoice> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant({ mode: 'correct' as const }) },
    { weight: 1, arbitrary: fc.constant({ mode: 'absent' as const }) },
    {
      weight: 3,
      arbitrary: fc.record({
        mode: fc.constant('lines' as const),
        values: fc.array(values, { minLength: 1, maxLength: 3 }),
      }),
    },
  );

const corruptEncoding: fc.Arbitrary<BodyEncoding> = fc.record({
  kind: fc.constant('corrupt' as const),
  encoding: fc.constantFrom('gzip', 'deflate', 'br', 'zstd', 'GZIP'),
  bytes: fc.uint8Array({ maxLength: 64 }),
});

const encoding: fc.Arbitrary<BodyEncoding> = fc.oneof(
  corruptEncoding,
  { weight: 8, arbitrary: fc.constant({ kind: 'identity' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('compressed' as const),
      encoding: fc.constantFrom('gzip' as const, 'deflate' as const, 'br' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('label-only' as const),
      encoding: fc.oneof(
        fc.constantFrom('identity', 'compress', 'x-unknown', 'gzip, identity', 'identity, gzip', ''),
        headerText,
      ),
    }),
  },
);

/** Header names node's client accepts (RFC 9110 tokens); framing and connection headers are left out. */
const headerName: fc.Arbitrary<string> = fc
  .string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_!#$%&*+.^`|~ABCXYZ'),
    minLength: 1,
    maxLength: 20,
  })
  .filter(name => !FRAMING_HEADERS.has(name.toLowerCase()));

const FRAMING_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'keep-alive',
  'content-encoding',
]);

const extraHeader: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(headerName, headerText),
  fc.tuple(
    fc.constantFrom('cookie', 'proxy-authorization', 'api-key', 'x-goog-api-key'),
    fc.oneof(fc.constantFrom(SECRET, `session=${SECRET}`, `Bearer ${SECRET}`), headerText),
  ),
  fc.tuple(
    fc.constantFrom(
      'x-request-id',
      'request-id',
      'accept',
      'x-forwarded-for',
      'origin',
      'anthropic-beta',
      'openai-organization',
      'x-auth-token',
    ),
    fc.oneof(
      fc.constantFrom(
        OTHER_SECRET,
        `Bearer ${OTHER_SECRET}`,
        'text/event-stream',
        'req_AAAAAAAAAAAAAAAAAAAAAAAA',
      ),
      headerText,
    ),
  ),
);

/** The headers property's input: each controlled header varied independently, plus random extras. */
export const headerPlan: fc.Arbitrary<HeaderPlan> = fc.record({
  authorization: headerChoice(authorizationValue),
  apiKey: headerChoice(apiKeyValue),
  version: headerChoice(versionValue),
  providerVersion: headerChoice(versionValue),
  contentType: headerChoice(contentTypeValue),
  encoding,
  extras: fc.array(extraHeader, { maxLength: 4 }),
  length: fc.constantFrom('exact' as const, 'exact' as const, 'shorter' as const),
  stream: fc.boolean(),
});
