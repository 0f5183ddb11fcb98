import { eitherSignal } from './either-signal';

describe('eitherSignal', () => {
  it('aborts when the first aborts, with its reason, and ignores the second after that', () => {
    const first = new AbortController();
    const second = new AbortController();
    const signal = eitherSignal(first.signal, second.signal);
    expect(signal.aborted).toBe(false);
    const reason = new Error('client left');
    first.abort(reason);
    second.abort(new Error('later'));
    expect([signal.aborted, signal.reason]).toEqual([true, reason]);
  });

  it('aborts when the second aborts, with its reason, firing its abort event once', () => {
    const first = new AbortController();
    const second = new AbortController();
    const signal = eitherSignal(first.signal, second.signal);
    let events = 0;
    signal.addEventListener('abort', () => (events += 1));
    const reason = new Error('deadline');
    second.abort(reason);
    first.abort(new Error('later'));
    expect([signal.reason, events]).toEqual([reason, 1]);
  });

  it('is aborted from the start when either already is', () => {
    const reason = new Error('already');
    const aborted = AbortSignal.abort(reason);
    const open = new AbortController().signal;
    expect(eitherSignal(aborted, open).reason).toBe(reason);
    expect(eitherSignal(open, aborted).reason).toBe(reason);
    expect(eitherSignal(open, aborted).aborted).toBe(true);
  });
});
