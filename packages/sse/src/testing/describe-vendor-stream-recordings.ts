/// <reference types="jest" />
import type { StreamDecoder } from '@signalbox/core';
import { decodeStreamChunks, readFixture, splitEvery } from './fixture-helpers';
import { findSplitsThatChangeMessages } from './find-splits-that-change-messages';

/** Where a codec's vendor stream recordings are and how to decode them. */
export type VendorStreamRecordings = {
  /** The fixture folder. */
  directory: string;
  /** The recordings (`*.stream.sse` file names) to check, one `describe` block each. */
  names: readonly string[];
  /** A fresh decoder for the protocol; called once per decode, since a decoder keeps state. */
  createDecoder: () => StreamDecoder;
  /** Fixed chunk sizes to cut each recording into, on top of every single split point. */
  chunkSizes: readonly number[];
};

/**
 * Declares the checks every vendor stream recording must pass, whatever the protocol: the events
 * it decodes to (a snapshot), the same events wherever the network splits the bytes (the same
 * messages, all the decoder sees, at every offset; the same events in fixed-size chunks), and
 * exactly one terminal event, last. Call it inside the
 * codec's `describe`; the test titles and snapshot names are the recording's file name followed by
 * the check.
 */
export function describeVendorStreamRecordings(recordings: VendorStreamRecordings): void {
  const { directory, names, createDecoder, chunkSizes } = recordings;
  const decodeChunks = (chunks: readonly Uint8Array[]) => decodeStreamChunks(createDecoder(), chunks);

  describe.each(names)('%s', name => {
    const bytes = readFixture(directory, name);
    const whole = decodeChunks([bytes]);

    it('maps the stream to IR events', () => {
      expect(whole).toMatchSnapshot();
    });

    it('gives the same events wherever the chunk boundaries fall', () => {
      expect(findSplitsThatChangeMessages(bytes)).toEqual([]);
      for (const size of chunkSizes) expect(decodeChunks(splitEvery(bytes, size))).toEqual(whole);
    });

    it('ends with exactly one terminal event, and it is the last one', () => {
      const terminal = whole.filter(event => event.type === 'response-end' || event.type === 'error');
      expect(terminal).toHaveLength(1);
      expect(whole.at(-1)).toBe(terminal[0]);
    });
  });
}
