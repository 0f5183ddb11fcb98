import { quoteMediaType } from './quote-media-type';

describe('quoteMediaType', () => {
  it('quotes a type/subtype name, without its parameters', () => {
    expect(quoteMediaType('image/heic')).toBe("'image/heic'");
    expect(quoteMediaType('text/csv; charset=utf-8')).toBe("'text/csv'");
    expect(quoteMediaType('application/vnd.ms-excel')).toBe("'application/vnd.ms-excel'");
  });

  it('never repeats text that is not a media type name', () => {
    for (const text of ['𐀀𐀀𐀀𐀀𐀀𐀀', 'Weather in Oslo tomorrow?', 'image/ png', '/png', 'image/', `image/${'x'.repeat(200)}`, '']) {
      expect(quoteMediaType(text)).toBe('(not a type/subtype name)');
    }
  });
});
