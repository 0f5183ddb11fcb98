import { generateAdminToken } from '../admin/admin-tokens';
import { generateConsoleToken } from '../console/console-token-secrets';
import { generateApiKey } from '../keys/api-key-secrets';
import { MASKED, maskSecrets } from './mask-secrets';

describe('maskSecrets', () => {
  it('masks members named like secrets and strings shaped like the gateway’s secrets, at any depth', () => {
    const apiKey = generateApiKey();
    const consoleToken = generateConsoleToken();
    const adminToken = generateAdminToken();
    const masked = maskSecrets({
      secret: 'anything',
      webhook: { url: 'https://example.com/hook', signingSecret: 'whsec_1', headers: { authorization: 'Basic abc' } },
      digest: 'ab12',
      notes: [apiKey, `${consoleToken}`, { pasted: adminToken }],
      token: { id: 'ctok_1', name: 'alice' },
    });
    expect(masked).toEqual({
      secret: MASKED,
      webhook: { url: 'https://example.com/hook', signingSecret: MASKED, headers: { authorization: MASKED } },
      digest: MASKED,
      notes: [MASKED, MASKED, { pasted: MASKED }],
      token: { id: 'ctok_1', name: 'alice' },
    });
  });

  it('keeps counts named like secrets, key prefixes, environment variable names and empty values', () => {
    const record = { limits: { tokens: 10_000 }, prefix: 'sbx-AbCdEfGh', apiKeyEnv: 'OPENAI_API_KEY', expiresAt: null, allowedModels: ['a'] };
    expect(maskSecrets(record)).toEqual(record);
  });
});
