import { createSSEDecoder } from '../create-sse-decoder';
import { findSplitsThatChangeMessages } from './find-splits-that-change-messages';

const wire = new TextEncoder().encode('event: a\ndata: {"n":1}\n\ndata: é\n\n');

describe('findSplitsThatChangeMessages', () => {
  it('finds no such split for the production decoder', () => {
    expect(findSplitsThatChangeMessages(wire)).toEqual([]);
  });

  it('lists every offset at which a framer that forgets its state between chunks goes wrong', () => {
    const forgetful = (chunks: readonly Uint8Array[]) =>
      chunks.flatMap(chunk => {
        const decoder = createSSEDecoder();
        return [...decoder.push(chunk), ...decoder.end()];
      });
    // Cuts just before or after the line ends that close a frame cost a fresh framer nothing
    // (its end() closes the frame); every other cut loses a field, a frame or half of the é.
    const harmless = [22, 23, 24, 32, 33];
    const everyOffset = Array.from({ length: wire.length - 1 }, (_, index) => index + 1);
    expect(findSplitsThatChangeMessages(wire, forgetful)).toEqual(everyOffset.filter(offset => !harmless.includes(offset)));
  });
});
