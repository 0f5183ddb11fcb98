import { REDACTED } from './create-secret-recogniser';
import { redact, redactHeaders, redactURL, scrubSecrets } from './redact';

describe('redaction', () => {
  const secret = 'sbx-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';

  it('masks credential and cookie headers, keeps the rest', () => {
    expect(
      redactHeaders({ Authorization: `Bearer ${secret}`, 'x-api-key': secret, cookie: 'session=1', 'content-type': 'application/json' }),
    ).toEqual({ Authorization: REDACTED, 'x-api-key': REDACTED, cookie: REDACTED, 'content-type': 'application/json' });
  });

  it('masks signed query parameters of URLs', () => {
    const url = 'https://bucket.example/object?X-Amz-Signature=abc&X-Amz-Credential=def&part=2';
    const safe = redactURL(url);
    expect(safe).not.toContain('abc');
    expect(safe).not.toContain('def');
    expect(safe).toContain('part=2');
    expect(redactURL('/v1/messages?beta=true')).toBe('/v1/messages?beta=true');
  });

  it('removes secrets and prompt text from nested diagnostics', () => {
    const diagnostic = {
      request: { headers: { authorization: `Bearer ${secret}` }, body: { model: 'm', input: 'my private prompt', messages: [{ content: 'x' }] } },
      config: { apiKey: secret, baseURL: 'https://api.example/v1?key=zzz' },
    };
    const text = JSON.stringify(redact(diagnostic));
    expect(text).not.toContain(secret);
    expect(text).not.toContain('my private prompt');
    expect(text).not.toContain('zzz');
    expect(text).toContain('"model":"m"');
  });
});

describe('scrubSecrets', () => {
  it('removes credential shapes and keeps help texts that only name them', () => {
    const key = `sbx-${'A1b2'.repeat(10)}`;
    expect(scrubSecrets(`The model '${key}' does not exist.`)).toBe("The model '[redacted]' does not exist.");
    const providerKey = ['sk', 'proj', 'x'.repeat(24)].join('-'); // built at run time: no key-shaped literal in the tree
    expect(scrubSecrets(`Incorrect API key provided: ${providerKey}.`)).toBe('Incorrect API key provided: [redacted].');
    expect(scrubSecrets('header: Bearer abcdefghijklmnopqrstuvwxyz012345')).toBe('header: [redacted]');
    expect(scrubSecrets('Send it as `Authorization: Bearer <API_KEY>`.')).toBe('Send it as `Authorization: Bearer <API_KEY>`.');
  });
});
