import { boundClientText, CLIENT_VALUE_MAX_CHARS, quoteClientValue } from './quote-client-value';

describe('quoteClientValue', () => {
  it('quotes a value within the limit as it is', () => {
    expect(quoteClientValue('gpt-6')).toBe("'gpt-6'");
    expect(quoteClientValue('x'.repeat(CLIENT_VALUE_MAX_CHARS))).toBe(`'${'x'.repeat(CLIENT_VALUE_MAX_CHARS)}'`);
  });

  it('cuts a 3.9 MB value to the limit and says how many characters were left off', () => {
    const quoted = quoteClientValue('m'.repeat(3_900_000));
    expect(quoted).toBe(`'${'m'.repeat(200)}…' (+3899800 chars)`);
  });

  it('takes a shorter limit', () => {
    expect(quoteClientValue('abcdef', 3)).toBe("'abc…' (+3 chars)");
  });

  it('never splits a surrogate pair', () => {
    expect(quoteClientValue('ab😀cd', 3)).toBe("'ab…' (+4 chars)");
  });
});

describe('boundClientText', () => {
  it('returns text within the limit unchanged', () => {
    expect(boundClientText('messages.0.content')).toBe('messages.0.content');
  });

  it('cuts longer text with the marker and no quotes', () => {
    expect(boundClientText('abcdef', 4)).toBe('abcd… (+2 chars)');
  });
});
