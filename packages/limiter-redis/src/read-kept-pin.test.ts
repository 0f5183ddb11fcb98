import { keptPinText, readKeptPin } from './read-kept-pin';

describe('readKeptPin', () => {
  it('reads back what keptPinText wrote, whatever characters the names hold', () => {
    for (const pin of [
      { upstream: 'anthropic', credential: 'team-a' },
      { upstream: 'pool "eu"/west', credential: 'key,1' },
    ]) {
      expect(readKeptPin(keptPinText(pin))).toEqual(pin);
    }
    expect(keptPinText({ upstream: 'anthropic', credential: 'team-a' })).toBe('["anthropic","team-a"]');
  });

  it.each([
    ['text that is not JSON', 'anthropic/team-a'],
    ['an object', JSON.stringify({ upstream: 'anthropic', credential: 'team-a' })],
    ['one name', JSON.stringify(['anthropic'])],
    ['three names', JSON.stringify(['anthropic', 'team-a', 'extra'])],
    ['a name that is not a string', JSON.stringify(['anthropic', 7])],
    ['an empty name', JSON.stringify(['anthropic', ''])],
  ])('reads %s as no pin', (_case, text) => {
    expect(readKeptPin(text)).toBeUndefined();
  });
});
