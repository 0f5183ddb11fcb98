import { isShowableClientName, quoteClientName } from './quote-client-name';

describe('quoteClientName', () => {
  it('quotes a type or ID name as quoteClientValue does', () => {
    expect(quoteClientName('web_search_20250305', '(not a type name)')).toBe("'web_search_20250305'");
    expect(quoteClientName('response.create', '(not a type name)')).toBe("'response.create'");
    expect(quoteClientName('resp_0123456789abcdef', '(not an ID)')).toBe("'resp_0123456789abcdef'");
  });

  it('cuts a long name as any quoted value is cut', () => {
    expect(quoteClientName('a'.repeat(500), '(not an ID)')).toBe(`'${'a'.repeat(200)}…' (+300 chars)`);
  });

  it('still replaces a credential that has a name shape', () => {
    expect(quoteClientName(`sk-${'a'.repeat(40)}`, '(not a type name)')).toBe("'[redacted]'");
  });

  it.each([
    ['prompt text', 'Summarise my medical records please'],
    ['a sentence without spaces', 'diagnosis:cancer,stage=2'],
    ['an empty string', ''],
    ['a string in an array', ['Summarise my medical records please']],
    ['an object', { text: 'Summarise my medical records please' }],
    ['a number', 42],
  ])('describes %s instead of quoting it', (_label, value) => {
    expect(quoteClientName(value, '(not a type name)')).toBe('(not a type name)');
  });

  it('takes another shape', () => {
    expect(quoteClientName('image/heic', '(not a type/subtype name)', /^[a-z]+\/[a-z]+$/)).toBe("'image/heic'");
    expect(quoteClientName('image heic', '(not a type/subtype name)', /^[a-z]+\/[a-z]+$/)).toBe('(not a type/subtype name)');
  });
});

describe('isShowableClientName', () => {
  const FLAG = /^[a-z0-9][a-z0-9._-]{0,63}$/;

  it('shows a value of the shape that holds no credential', () => {
    expect(isShowableClientName('interleaved-thinking-2025-05-14', FLAG)).toBe(true);
  });

  it('does not show a value off the shape, a credential of the shape, or a non-string', () => {
    expect(isShowableClientName('some prompt text', FLAG)).toBe(false);
    expect(isShowableClientName(`sk-ant-api03-${'a'.repeat(40)}`, FLAG)).toBe(false);
    expect(isShowableClientName(42, FLAG)).toBe(false);
  });
});
