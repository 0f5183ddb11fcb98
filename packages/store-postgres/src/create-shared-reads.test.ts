import { createSharedReads } from './create-shared-reads';

/** A read answered (or failed) when the test says so. */
function heldRead<T>() {
  let answer!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => ((answer = resolve), (fail = reject)));
  return { start: jest.fn(() => promise), answer, fail };
}

describe('createSharedReads', () => {
  it('gives calls made while a read is in flight that read, and forgets it once it answered', async () => {
    const reads = createSharedReads<string>();
    const first = heldRead<string>();
    const calls = Array.from({ length: 8 }, () => reads.read('acct_1', first.start));
    expect(first.start).toHaveBeenCalledTimes(1);
    expect(reads.inFlight).toBe(1);
    first.answer('row 1');
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 8 }, () => 'row 1'));
    expect(reads.inFlight).toBe(0);

    const second = heldRead<string>();
    const later = reads.read('acct_1', second.start);
    expect(second.start).toHaveBeenCalledTimes(1);
    second.answer('row 2');
    expect(await later).toBe('row 2');
  });

  it('never joins a read that has answered, even before its callers have run', async () => {
    const reads = createSharedReads<string>();
    const first = heldRead<string>();
    const second = heldRead<string>();
    const joined = reads.read('acct_1', first.start).then(row => [row, reads.read('acct_1', second.start)] as const);
    first.answer('old');
    const [row, next] = await joined;
    expect(row).toBe('old');
    expect(second.start).toHaveBeenCalledTimes(1);
    second.answer('new');
    expect(await next).toBe('new');
  });

  it('keeps the reads of different keys apart', async () => {
    const reads = createSharedReads<string>();
    const one = heldRead<string>();
    const other = heldRead<string>();
    const calls = [reads.read('acct_1', one.start), reads.read('acct_2', other.start)];
    expect(reads.inFlight).toBe(2);
    one.answer('one');
    other.answer('other');
    expect(await Promise.all(calls)).toEqual(['one', 'other']);
  });

  it('after forget, starts a new read for the next call, the read before it still answering its own callers', async () => {
    const reads = createSharedReads<string>();
    const before = heldRead<string>();
    const after = heldRead<string>();
    const early = reads.read('acct_1', before.start);
    reads.forget();
    const late = [reads.read('acct_1', after.start), reads.read('acct_1', after.start)];
    expect(after.start).toHaveBeenCalledTimes(1);
    before.answer('before the change');
    expect(await early).toBe('before the change');
    // The earlier read settling leaves the newer one in place for the calls that come meanwhile.
    expect(reads.inFlight).toBe(1);
    const joined = reads.read('acct_1', jest.fn());
    after.answer('after the change');
    expect(await Promise.all([...late, joined])).toEqual(['after the change', 'after the change', 'after the change']);
    expect(reads.inFlight).toBe(0);
  });

  it('rejects every joined call with a failed read, and forgets it', async () => {
    const reads = createSharedReads<string>();
    const failing = heldRead<string>();
    const calls = Array.from({ length: 3 }, () => reads.read('acct_1', failing.start));
    const failure = new Error('connection terminated');
    failing.fail(failure);
    const outcomes = await Promise.allSettled(calls);
    expect(outcomes).toEqual(Array.from({ length: 3 }, () => ({ status: 'rejected', reason: failure })));
    expect(reads.inFlight).toBe(0);
    const again = heldRead<string>();
    const retried = reads.read('acct_1', again.start);
    again.answer('row');
    expect(await retried).toBe('row');
  });
});
