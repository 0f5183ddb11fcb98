import { findJSONSyntaxError } from './find-json-syntax-error';

/** The offset `JSON.parse` names for `text`'s error, when it names one. */
function parserOffset(text: string): number | undefined {
  try {
    JSON.parse(text);
  } catch (error) {
    const position = / at position (\d+)/.exec((error as Error).message);
    return position ? Number(position[1]) : undefined;
  }
  throw new Error(`${text} parsed`);
}

describe('findJSONSyntaxError', () => {
  it('finds nothing wrong in valid JSON of every shape', () => {
    const documents = [
      '{}',
      ' [ ] ',
      '{"a": [1, -2.5e+3, 0, 1E2, true, false, null, "x\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"], "b": {"c": {}}}',
      '\n\t"just a string"\r\n',
      '-0.0',
    ];
    for (const text of documents) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect([text, findJSONSyntaxError(text)]).toEqual([text, undefined]);
    }
  });

  it('finds the offset the parser names, where it names one', () => {
    const broken = ['{"a": 1,}', '{"a" 1}', '{"a": 1 "b": 2}', '[1, 2', '{"a": "b\n"}', '{"a": 1}}', '{\'a\': 1}', '{"a": "\\x"}', '[01]'];
    for (const text of broken) {
      const named = parserOffset(text);
      expect(named).toBeDefined();
      expect([text, findJSONSyntaxError(text)]).toEqual([text, named]);
    }
  });

  it('finds where the parser names no place: a stray character, a word that is no value, an end that comes too soon', () => {
    expect(findJSONSyntaxError('[1, 2,]')).toBe(6);
    expect(findJSONSyntaxError('{"a": /* no */ 1}')).toBe(6);
    expect(findJSONSyntaxError('{"a": nul}')).toBe(9);
    expect(findJSONSyntaxError('{"a": yes}')).toBe(6);
    expect(findJSONSyntaxError('{"a": [')).toBe(7);
    expect(findJSONSyntaxError('')).toBe(0);
  });
});
