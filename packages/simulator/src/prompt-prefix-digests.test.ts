import { digestAtCharacters, digestBlockEnds } from './prompt-prefix-digests';

describe('prompt prefix digests', () => {
  it('gives a prefix the same digest wherever the next block starts, and another one for another label or scope', () => {
    const short = [{ label: 'user', text: 'abcdefgh' }];
    const longer = [{ label: 'user', text: 'abcdefghijkl' }, { label: 'assistant', text: 'mnop' }];
    const [atEnd] = digestAtCharacters(short, 'scope', [8]);
    const [inside, pastBlock] = digestAtCharacters(longer, 'scope', [8, 14]);
    expect(inside).toEqual(atEnd);
    expect(pastBlock?.characters).toBe(14);
    expect(digestAtCharacters([{ label: 'tool', text: 'abcdefgh' }], 'scope', [8])[0]?.digest).not.toBe(atEnd?.digest);
    expect(digestAtCharacters(short, 'other scope', [8])[0]?.digest).not.toBe(atEnd?.digest);
  });

  it('takes a tool definition into the digest but not into the positions, without its cache_control', () => {
    const plain = [{ label: 'user', text: 'abcdefgh' }];
    const withTool = [{ label: 'tool', text: '', definition: { name: 'get_weather' } }, ...plain];
    const marked = [{ label: 'tool', text: '', definition: { name: 'get_weather', cache_control: { type: 'ephemeral' } } }, ...plain];
    expect(digestBlockEnds(marked, 'scope', 1)).toEqual(digestBlockEnds(withTool, 'scope', 1));
    const [withToolDigest] = digestAtCharacters(withTool, 'scope', [8]);
    expect(withToolDigest?.characters).toBe(8);
    expect(withToolDigest?.digest).not.toBe(digestAtCharacters(plain, 'scope', [8])[0]?.digest);
    expect(digestBlockEnds(withTool, 'scope', 1).map(end => end.characters)).toEqual([0, 8]);
  });

  it('digests block ends through the last block asked for, telling an empty block from none', () => {
    const blocks = [
      { label: 'system', text: 'abcd' },
      { label: 'user:image', text: '' },
      { label: 'user:text', text: 'efgh' },
    ];
    const ends = digestBlockEnds(blocks, 'scope', 1);
    expect(ends.map(end => end.characters)).toEqual([4, 4]);
    expect(ends[0]?.digest).not.toBe(ends[1]?.digest);
    expect(digestBlockEnds(blocks, 'scope', 2)[1]).toEqual(ends[1]);
  });
});
