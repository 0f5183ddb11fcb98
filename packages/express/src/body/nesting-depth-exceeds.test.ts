import { nestingDepthExceeds } from './nesting-depth-exceeds';

/** `depth` objects or arrays, one inside the other (depth 1: `{}` or `[]`), with `leaf` at the bottom. */
function nested(depth: number, kind: 'object' | 'array', leaf?: unknown): unknown {
  let value: unknown = kind === 'object' ? (leaf === undefined ? {} : { leaf }) : leaf === undefined ? [] : [leaf];
  for (let level = 1; level < depth; level++) value = kind === 'object' ? { inner: value } : [value];
  return value;
}

describe('nestingDepthExceeds', () => {
  it.each(['object', 'array'] as const)('allows %ss nested exactly to the limit and refuses one level more', kind => {
    expect(nestingDepthExceeds(nested(64, kind), 64)).toBe(false);
    expect(nestingDepthExceeds(nested(65, kind), 64)).toBe(true);
  });

  it('counts only objects and arrays: a string or number at the bottom adds no level', () => {
    expect(nestingDepthExceeds(nested(64, 'object', 'text'), 64)).toBe(false);
    expect(nestingDepthExceeds(nested(64, 'array', 7), 64)).toBe(false);
    expect(nestingDepthExceeds('text', 0)).toBe(false);
  });

  it('finds a deep branch beside shallow ones, in objects and arrays mixed', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'tool', content: [nested(60, 'object')] }] };
    expect(nestingDepthExceeds(body, 64)).toBe(false);
    expect(nestingDepthExceeds(body, 63)).toBe(true);
  });

  it('answers for input nested 100 000 levels deep without overflowing the stack', () => {
    expect(nestingDepthExceeds(nested(100_000, 'array'), 64)).toBe(true);
    expect(nestingDepthExceeds(nested(100_000, 'object'), 64)).toBe(true);
  });
});
