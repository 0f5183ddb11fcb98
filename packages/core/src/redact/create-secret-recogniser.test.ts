import { inspect } from 'node:util';
import { createSecretRecogniser, MAX_LEARNED_SECRETS, REDACTED, secretRecogniser } from './create-secret-recogniser';
import { SECRET_SHAPES } from './secret-shapes';

// Secrets are built at run time: no credential-shaped literal sits in the tree.
const base62 = (length: number) => 'aB3dE5fG7h'.repeat(Math.ceil(length / 10)).slice(0, length);
const apiKey = `sbx-${base62(40)}`;
const adminToken = `sbx-admin-${'0a1b2c3d'.repeat(6)}`;
const consoleToken = ['sbx', 'console', base62(40)].join('-');
const sessionId = `Qw_${base62(37)}-Z9`;

describe('secretRecogniser: the shapes', () => {
  it.each([
    ['an API key', apiKey],
    ['an admin token', adminToken],
    ['an account console token', consoleToken],
    ['a panel session id or CSRF token', sessionId],
    ['an OpenAI project key', ['sk', 'proj', base62(48)].join('-')],
    ['an Anthropic key', ['sk', 'ant', 'api03', base62(90)].join('-')],
    ['an AWS access key id', ['AKIA', 'IOSFODNN7EXAMPLE'].join('')],
    ['a Google API key', ['AIza', base62(35)].join('')],
    ['a GitHub token', ['ghp', base62(36)].join('_')],
    ['a Slack token', ['xoxb', '1234567890', base62(24)].join('-')],
  ])('replaces %s wherever it appears in a text', (_kind, secret) => {
    expect(secretRecogniser.scrub(secret)).toBe(REDACTED);
    expect(secretRecogniser.scrub(`/v1/models/${secret}?x=1`)).toBe(`/v1/models/${REDACTED}?x=1`);
    expect(secretRecogniser.scrub(`curl/8.0 (${secret})`)).toBe(`curl/8.0 (${REDACTED})`);
    expect(secretRecogniser.find(`model '${secret}'`)).toEqual([secret]);
  });

  it('replaces a Bearer or Basic credential whatever the case of the scheme, and keeps a help text that only names one', () => {
    expect(secretRecogniser.scrub(`header: Bearer ${base62(30)}`)).toBe(`header: ${REDACTED}`);
    expect(secretRecogniser.scrub(`BEARER ${base62(30)} and basic ${base62(24)}==`)).toBe(`${REDACTED} and ${REDACTED}`);
    expect(secretRecogniser.scrub('Send it as `Authorization: Bearer <API_KEY>`.')).toBe('Send it as `Authorization: Bearer <API_KEY>`.');
  });

  it('replaces the value of a credential query parameter and keeps its name and the other parameters', () => {
    expect(secretRecogniser.scrub('/v1/messages?beta=true&key=abc&part=2')).toBe(`/v1/messages?beta=true&key=${REDACTED}&part=2`);
    expect(secretRecogniser.scrub('/x?API_KEY=abc;Token=def')).toBe(`/x?API_KEY=${REDACTED};Token=${REDACTED}`);
    expect(secretRecogniser.scrub('https://bucket.example/o?X-Amz-Signature=abc&X-Amz-Credential=def')).toBe(
      `https://bucket.example/o?X-Amz-Signature=${REDACTED}&X-Amz-Credential=${REDACTED}`,
    );
    expect(secretRecogniser.scrub('/v1/messages?beta=true&keyboard=qwerty&monkey=1')).toBe('/v1/messages?beta=true&keyboard=qwerty&monkey=1');
  });

  it('keeps the visible prefixes the logs show on purpose, hex digests, words and other runs of 43 characters', () => {
    const harmless = [
      apiKey.slice(0, 12),
      consoleToken.slice(0, 20),
      adminToken.slice(0, 18),
      'f'.repeat(64),
      '0123456789abcdef'.repeat(4),
      'claude-sonnet-4-5-20250929',
      'a-model-id-in-lower-case-with-43-characters',
      `${sessionId}x`,
      'req_YwqDpUViDli5KJoKPcERLw41',
      'task-completion-model',
    ];
    for (const text of harmless) expect(secretRecogniser.scrub(text)).toBe(text);
  });

  it('finds nothing in a text it scrubbed', () => {
    const scrubbed = secretRecogniser.scrub(`/v1/x?key=${apiKey}&token=abc Bearer ${base62(30)} ${sessionId} ${consoleToken}`);
    expect(secretRecogniser.find(scrubbed)).toEqual([]);
    expect(secretRecogniser.scrub(scrubbed)).toBe(scrubbed);
  });

  it('hands back the very same string when there is nothing to replace', () => {
    const text = `/v1/chat/completions ${'x'.repeat(100)}`;
    expect(Object.is(secretRecogniser.scrub(text), text)).toBe(true);
  });

  it('has no capture group in any shape but the one context it keeps', () => {
    for (const shape of SECRET_SHAPES) {
      const groups = new RegExp(`${shape.pattern}|`).exec('')!.length - 1;
      expect({ shape: shape.name, groups: groups <= 1 }).toEqual({ shape: shape.name, groups: true });
    }
  });
});

describe('createSecretRecogniser: exact values', () => {
  const upstreamKey = 'plain.upstream+credential/7f3k2';

  it('replaces each value given, even one with no shape and with pattern characters in it', () => {
    const secrets = createSecretRecogniser([upstreamKey, undefined]);
    expect(secrets.scrub(`Incorrect API key provided: ${upstreamKey}.`)).toBe(`Incorrect API key provided: ${REDACTED}.`);
    expect(secrets.scrub(`${apiKey} ${upstreamKey}`)).toBe(`${REDACTED} ${REDACTED}`);
    expect(secretRecogniser.scrub(upstreamKey)).toBe(upstreamKey);
  });

  it('replaces a value holding another whole, and ignores values too short to be secrets', () => {
    const secrets = createSecretRecogniser(['credential-1234', 'credential-1234-and-more', 'short']);
    expect(secrets.scrub('x credential-1234-and-more y short')).toBe(`x ${REDACTED} y short`);
  });

  it('never shows its values: serialised or inspected, it is only functions', () => {
    const secrets = createSecretRecogniser([upstreamKey]);
    expect(JSON.stringify(secrets)).toBe('{}');
    expect(inspect(secrets, { depth: 5, showHidden: true })).not.toContain('credential');
  });
});

describe('cut', () => {
  it('scrubs, then cuts to the limit and counts what was left off', () => {
    expect(secretRecogniser.cut(`model ${consoleToken}`, 200)).toEqual({ kept: `model ${REDACTED}`, omitted: 0 });
    expect(secretRecogniser.cut('abcdef', 4)).toEqual({ kept: 'abcd', omitted: 2 });
  });

  it('looks only a short way past the cut in a huge value, and counts the rest', () => {
    const { kept, omitted } = secretRecogniser.cut('m'.repeat(3_900_000), 200);
    expect([kept, omitted]).toEqual(['m'.repeat(200), 3_899_800]);
  });

  it('never keeps a piece of a secret that starts before the cut and ends after it', () => {
    const upstreamKey = 'upstream-credential-without-a-shape-0123456789';
    const secrets = createSecretRecogniser([upstreamKey]);
    for (const secret of [consoleToken, apiKey, sessionId, upstreamKey]) {
      for (let before = 160; before < 200; before += 1) {
        const { kept } = secrets.cut(`${'.'.repeat(before)}${secret}${'.'.repeat(5_000)}`, 200);
        // What follows the dots is the marker (or its start), never a piece of the secret.
        expect(kept.slice(before)).toBe(`${REDACTED}${'.'.repeat(200)}`.slice(0, 200 - before));
      }
    }
  });

  it('scrubs a tail the cut made look like a panel token (the first 43 characters of a longer run)', () => {
    const run = `${base62(60)}`;
    const { kept } = secretRecogniser.cut(`${'.'.repeat(157)}${run}`, 200);
    expect(kept).toBe(`${'.'.repeat(157)}${REDACTED}`);
  });
});

describe('the bare token check', () => {
  it('finds a panel token at the start, the end or anywhere in a text, whatever the length around it', () => {
    for (let before = 0; before < 90; before += 1) {
      for (const after of ['', '.', ' tail of the text']) {
        const text = `${'. '.repeat(before).slice(0, before)}${sessionId}${after}`;
        expect(secretRecogniser.scrub(text)).toBe(`${text.slice(0, before)}${REDACTED}${after}`);
      }
    }
  });
});

describe('createSecretRecogniser: secrets learned while it runs', () => {
  it('recognises a remembered token from then on, and keeps only the latest learned ones', () => {
    const recogniser = createSecretRecogniser(['given-key-0123456789']);
    const token = 'rotated.token-value.AAAA-1111';
    expect(recogniser.scrub(`token ${token}`)).toBe(`token ${token}`);
    recogniser.remember(token);
    expect(recogniser.scrub(`sent ${token} and given-key-0123456789`)).toBe('sent [redacted] and [redacted]');
    for (let index = 0; index < MAX_LEARNED_SECRETS; index++) recogniser.remember(`later.token-${index}-value`);
    expect(recogniser.scrub(`token ${token}`)).toBe(`token ${token}`);
    expect(recogniser.scrub(`later.token-${MAX_LEARNED_SECRETS - 1}-value given-key-0123456789`)).toBe('[redacted] [redacted]');
  });
});
