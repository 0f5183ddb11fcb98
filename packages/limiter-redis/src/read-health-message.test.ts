import { readHealthMessage, readKeptMark } from './read-health-message';

describe('readHealthMessage', () => {
  it('reads each kind of mark another instance publishes', () => {
    const marks = [
      { kind: 'cooldown', upstream: 'anthropic', credential: 'team-a', until: 1_767_225_630_000 },
      { kind: 'circuit-open', upstream: 'anthropic', until: 1_767_225_630_000 },
      { kind: 'circuit-closed', upstream: 'anthropic', credential: 'team-a' },
      { kind: 'disabled', upstream: 'anthropic', credential: 'team-a', reason: 'upstream-403' },
      { kind: 'enabled', upstream: 'anthropic', credential: 'team-a' },
    ];
    for (const mark of marks) expect(readHealthMessage(JSON.stringify({ origin: 'instance-1', mark }))).toEqual({ origin: 'instance-1', mark });
  });

  it.each([
    ['text that is not JSON', 'not json'],
    ['a message without an origin', JSON.stringify({ mark: { kind: 'enabled', upstream: 'u', credential: 'c' } })],
    ['an unknown kind', JSON.stringify({ origin: 'o', mark: { kind: 'deleted', upstream: 'u', credential: 'c' } })],
    ['a cooldown without its end', JSON.stringify({ origin: 'o', mark: { kind: 'cooldown', upstream: 'u', credential: 'c' } })],
    ['a reason no engine gives', JSON.stringify({ origin: 'o', mark: { kind: 'disabled', upstream: 'u', credential: 'c', reason: 'because' } })],
    ['a credential that is not a name', JSON.stringify({ origin: 'o', mark: { kind: 'enabled', upstream: 'u', credential: 7 } })],
  ])('ignores %s', (_case, text) => {
    expect(readHealthMessage(text)).toBeUndefined();
  });

  it('reads a kept mark, and nothing from a key holding anything else', () => {
    expect(readKeptMark('{"kind":"cooldown","upstream":"u","credential":"c","until":5}')).toEqual({ kind: 'cooldown', upstream: 'u', credential: 'c', until: 5 });
    expect(readKeptMark('{"kind":"cooldown"}')).toBeUndefined();
  });
});
