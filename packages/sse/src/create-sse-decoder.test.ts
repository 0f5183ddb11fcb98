import fc from 'fast-check';
import { decodeSSEChunks, splitAt, splitEvery } from './testing/fixture-helpers';
import { formatSSEComment, formatSSEFrame } from './format-sse-frame';

const encoder = new TextEncoder();
const wire = encoder.encode(
  'event: a\ndata: {"text":"héllo ✓ 🚀"}\n\n: a comment\n\nevent: b\r\ndata: line1\r\ndata: line2\r\n\r\ndata: [DONE]\n\n',
);

describe('createSSEDecoder', () => {
  const expected = [
    { event: 'a', data: '{"text":"héllo ✓ 🚀"}', id: undefined },
    { event: 'b', data: 'line1\nline2', id: undefined },
    { event: undefined, data: '[DONE]', id: undefined },
  ];

  it('frames events, joins data lines, skips comments, accepts CRLF', () => {
    expect(decodeSSEChunks([wire])).toEqual(expected);
  });

  it('does not depend on where chunk boundaries fall, even inside UTF-8 characters', () => {
    for (let offset = 1; offset < wire.length; offset++) {
      expect(decodeSSEChunks(splitAt(wire, [offset]))).toEqual(expected);
    }
    expect(decodeSSEChunks(splitEvery(wire, 1))).toEqual(expected);
  });

  it('drops a byte order mark opening the stream, wherever the chunks split, and keeps one in the data', () => {
    const marked = encoder.encode('\uFEFFdata: \uFEFFx\n\ndata: \uFEFF\n\n');
    const frames = [
      { event: undefined, data: '\uFEFFx', id: undefined },
      { event: undefined, data: '\uFEFF', id: undefined },
    ];
    for (let offset = 0; offset <= marked.length; offset++) {
      expect(decodeSSEChunks(splitAt(marked, [offset]))).toEqual(frames);
    }
    expect(decodeSSEChunks(splitEvery(marked, 2))).toEqual(frames);
  });

  it('gives any text split anywhere as the text whole', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 8 }), { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 6 }), (texts, cuts) => {
        const bytes = encoder.encode(texts.map(text => `data: ${text.replace(/[\r\n]/g, ' ')}\n\n`).join(''));
        const offsets = [...new Set(cuts.map(cut => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        expect(decodeSSEChunks(splitAt(bytes, offsets))).toEqual(decodeSSEChunks([bytes]));
        expect(decodeSSEChunks([bytes]).map(message => message.data)).toEqual(texts.map(text => text.replace(/[\r\n]/g, ' ')));
      }),
      { numRuns: 300 },
    );
  });

  it('flushes a last frame that lacks its blank line at end of input', () => {
    expect(decodeSSEChunks([encoder.encode('data: tail')])).toEqual([{ event: undefined, data: 'tail', id: undefined }]);
  });
});

describe('formatSSEFrame', () => {
  it('writes event and data lines and splits multi-line data', () => {
    expect(formatSSEFrame({ event: 'x', data: '{"a":1}' })).toBe('event: x\ndata: {"a":1}\n\n');
    expect(formatSSEFrame({ data: 'one\ntwo' })).toBe('data: one\ndata: two\n\n');
  });

  it('round-trips through the decoder', () => {
    const frames = [{ event: 'e', data: 'p\nq' }, { data: '{}' }].map(formatSSEFrame).join('') + formatSSEComment('ka');
    expect(decodeSSEChunks([encoder.encode(frames)])).toEqual([
      { event: 'e', data: 'p\nq', id: undefined },
      { event: undefined, data: '{}', id: undefined },
    ]);
  });

  it('refuses line breaks in an event name', () => {
    expect(() => formatSSEFrame({ event: 'a\nb', data: '' })).toThrow(/line break/);
  });
});
