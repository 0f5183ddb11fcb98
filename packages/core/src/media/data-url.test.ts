import { formatDataURL, parseDataURL } from './data-url';

describe('data URLs', () => {
  it('parses base64 data URLs and round-trips them', () => {
    expect(parseDataURL('data:image/PNG;base64,iVBORw0K')).toEqual({ mediaType: 'image/png', data: 'iVBORw0K' });
    expect(parseDataURL(formatDataURL('application/pdf', 'JVBERi0'))).toEqual({ mediaType: 'application/pdf', data: 'JVBERi0' });
  });

  it('returns undefined for URLs that are not base64 data URLs', () => {
    expect(parseDataURL('https://example.com/cat.png')).toBeUndefined();
    expect(parseDataURL('data:text/plain,hello')).toBeUndefined();
  });
});
