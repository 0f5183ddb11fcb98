import { createRefreshingToken, type IssuedToken } from './create-refreshing-token';

/** An issuer whose tokens live `lifeMs` from the hand-moved clock, each fetch held until the test settles it. */
function scriptedIssuer(lifeMs: number) {
  let time = 1_000_000;
  const fetches: { resolve(token: IssuedToken): void; reject(error: Error): void }[] = [];
  const learned: string[] = [];
  const token = createRefreshingToken({
    now: () => time,
    fetch: () => new Promise<IssuedToken>((resolve, reject) => fetches.push({ resolve, reject })),
    onToken: value => learned.push(value),
  });
  return {
    token,
    fetches,
    learned,
    advance: (ms: number) => (time += ms),
    issue: (index: number, value: string) => fetches[index]!.resolve({ token: value, expiresAt: time + lifeMs }),
  };
}

/** An issuer whose first token, `token-one`, was handed out and is kept. */
async function issuerWithFirstToken(lifeMs: number) {
  const issuer = scriptedIssuer(lifeMs);
  const first = issuer.token.current();
  issuer.issue(0, 'token-one');
  await first;
  return issuer;
}

describe('createRefreshingToken', () => {
  it('fetches once for every caller waiting, then serves the kept token without a promise', async () => {
    const issuer = scriptedIssuer(2_000);
    const first = issuer.token.current();
    const second = issuer.token.current();
    expect(issuer.fetches).toHaveLength(1);
    issuer.issue(0, 'token-one');
    await expect(Promise.all([first, second])).resolves.toEqual(['token-one', 'token-one']);
    expect(issuer.token.current()).toBe('token-one');
    expect(issuer.learned).toEqual(['token-one']);
  });

  it('renews in the background past half its life and sends the old token until the new one comes', async () => {
    const issuer = await issuerWithFirstToken(2_000);
    issuer.advance(999);
    expect(issuer.token.current()).toBe('token-one');
    expect(issuer.fetches).toHaveLength(1);
    issuer.advance(2);
    expect(issuer.token.current()).toBe('token-one');
    expect(issuer.token.current()).toBe('token-one');
    expect(issuer.fetches).toHaveLength(2);
    issuer.issue(1, 'token-two');
    await Promise.resolve();
    expect(issuer.token.current()).toBe('token-two');
    expect(issuer.learned).toEqual(['token-one', 'token-two']);
  });

  it('keeps a valid token when a renewal fails, tries again after a wait, and makes callers wait once it expired', async () => {
    const issuer = await issuerWithFirstToken(2_000);
    issuer.advance(1_200);
    expect(issuer.token.current()).toBe('token-one');
    issuer.fetches[1]!.reject(new Error('issuer down'));
    await new Promise(resolve => setImmediate(resolve));
    expect(issuer.token.current()).toBe('token-one');
    expect(issuer.fetches).toHaveLength(2);
    issuer.advance(200);
    expect(issuer.token.current()).toBe('token-one');
    expect(issuer.fetches).toHaveLength(3);
    issuer.fetches[2]!.reject(new Error('issuer down'));
    await new Promise(resolve => setImmediate(resolve));
    issuer.advance(700);
    const waiting = issuer.token.current();
    expect(waiting).toBeInstanceOf(Promise);
    issuer.fetches[3]!.reject(new Error('issuer still down'));
    await expect(waiting).rejects.toThrow('issuer still down');
  });
});
