import { randomBytes } from 'node:crypto';
import { apiKeyDigestKey, digestsEqual, generateApiKey, hashApiKey, KEY_PREFIX_LENGTH, keyPrefix, looksLikeApiKey } from './api-key-secrets';

describe('API key secrets', () => {
  it('generates `sbx-` plus 40 base62 characters, different every time', () => {
    const first = generateApiKey();
    const second = generateApiKey();
    expect(first).toMatch(/^sbx-[A-Za-z0-9]{40}$/);
    expect(second).toMatch(/^sbx-[A-Za-z0-9]{40}$/);
    expect(first).not.toBe(second);
    expect(looksLikeApiKey(first)).toBe(true);
  });

  it('shows only `sbx-` plus 8 characters as the visible prefix', () => {
    const key = generateApiKey();
    expect(KEY_PREFIX_LENGTH).toBe(12);
    expect(keyPrefix(key)).toBe(key.slice(0, 12));
  });

  it('does not take strings of another shape for API keys', () => {
    const key = generateApiKey();
    expect(looksLikeApiKey(key.slice(0, -1))).toBe(false);
    expect(looksLikeApiKey(`${key}x`)).toBe(false);
    expect(looksLikeApiKey(`xx-${key.slice(3)}`)).toBe(false);
    expect(looksLikeApiKey(`sbx-admin-${randomBytes(24).toString('hex')}`)).toBe(false);
  });

  it('digests a key under the server secret: the same pair gives the same digest, another secret another one', () => {
    const key = generateApiKey();
    const serverSecret = randomBytes(32).toString('hex');
    const digest = hashApiKey(key, serverSecret);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key, serverSecret)).toBe(digest);
    expect(hashApiKey(key, randomBytes(32).toString('hex'))).not.toBe(digest);
    expect(hashApiKey(generateApiKey(), serverSecret)).not.toBe(digest);
  });

  it('gives the same digest under the server secret made a key once as under its text, so stored digests still match', () => {
    const serverSecret = `${randomBytes(32).toString('hex')}é`;
    const key = generateApiKey();
    const digestKey = apiKeyDigestKey(serverSecret);
    expect(hashApiKey(key, digestKey)).toBe(hashApiKey(key, serverSecret));
    expect(hashApiKey(key, apiKeyDigestKey(randomBytes(32).toString('hex')))).not.toBe(hashApiKey(key, serverSecret));
  });

  it('compares digests by value, and digests of different lengths as unequal', () => {
    const serverSecret = randomBytes(32).toString('hex');
    const digest = hashApiKey(generateApiKey(), serverSecret);
    expect(digestsEqual(digest, digest.slice())).toBe(true);
    expect(digestsEqual(digest, hashApiKey(generateApiKey(), serverSecret))).toBe(false);
    expect(digestsEqual(digest, digest.slice(0, 62))).toBe(false);
  });
});
