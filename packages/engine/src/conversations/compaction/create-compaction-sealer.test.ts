import { randomBytes } from 'node:crypto';
import { createCompactionSealer } from './create-compaction-sealer';

const secret = () => randomBytes(32).toString('hex');

describe('createCompactionSealer', () => {
  it('opens what it sealed for the same account, and the sealed form has a version prefix and no plain text', () => {
    const sealer = createCompactionSealer(secret());
    const sealed = sealer.seal('The user wants a haiku about rivers.', 'acct_1');
    expect(sealed).toMatch(/^sy1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('haiku');
    expect(sealer.open(sealed, 'acct_1')).toBe('The user wants a haiku about rivers.');
  });

  it('seals the same summary differently each time', () => {
    const sealer = createCompactionSealer(secret());
    expect(sealer.seal('same', 'acct_1')).not.toBe(sealer.seal('same', 'acct_1'));
  });

  it('refuses to open a summary sealed for another account', () => {
    const sealer = createCompactionSealer(secret());
    expect(sealer.open(sealer.seal('private', 'acct_1'), 'acct_2')).toBeUndefined();
  });

  it('refuses a summary sealed under another secret, and opens it under the same secret in another sealer', () => {
    const shared = secret();
    const sealed = createCompactionSealer(shared).seal('carried', 'acct_1');
    expect(createCompactionSealer(secret()).open(sealed, 'acct_1')).toBeUndefined();
    expect(createCompactionSealer(shared).open(sealed, 'acct_1')).toBe('carried');
  });

  it('refuses tampered, truncated, foreign and differently versioned content', () => {
    const sealer = createCompactionSealer(secret());
    const sealed = sealer.seal('the summary', 'acct_1');
    const payload = Buffer.from(sealed.slice(4), 'base64url');
    payload[payload.length - 1]! ^= 1;
    expect(sealer.open(`sy1.${payload.toString('base64url')}`, 'acct_1')).toBeUndefined();
    expect(sealer.open(sealed.slice(0, 20), 'acct_1')).toBeUndefined();
    expect(sealer.open('gAAAAABopenai-encrypted-content', 'acct_1')).toBeUndefined();
    expect(sealer.open(`sy2.${sealed.slice(4)}`, 'acct_1')).toBeUndefined();
    expect(sealer.open(`${sealed}.extra`, 'acct_1')).toBeUndefined();
  });
});
