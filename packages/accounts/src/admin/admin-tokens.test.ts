import { createHash } from 'node:crypto';
import { generateApiKey, looksLikeApiKey } from '../keys/api-key-secrets';
import { digestAdminToken, generateAdminToken, looksLikeAdminToken } from './admin-tokens';

describe('console (admin) tokens', () => {
  it('generates `sbx-admin-` plus 48 hex characters, different every time', () => {
    const first = generateAdminToken();
    expect(first).toMatch(/^sbx-admin-[0-9a-f]{48}$/);
    expect(generateAdminToken()).not.toBe(first);
  });

  it('keeps console tokens and API keys apart by their shape', () => {
    const token = generateAdminToken();
    const key = generateApiKey();
    expect(looksLikeAdminToken(token)).toBe(true);
    expect(looksLikeApiKey(token)).toBe(false);
    expect(looksLikeAdminToken(key)).toBe(false);
  });

  it('stores a token as its SHA-256 digest in hex', () => {
    const token = generateAdminToken();
    expect(digestAdminToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(digestAdminToken(token)).toBe(digestAdminToken(token));
    expect(digestAdminToken(generateAdminToken())).not.toBe(digestAdminToken(token));
  });
});
