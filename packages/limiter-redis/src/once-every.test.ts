import { onceEvery } from './once-every';

describe('onceEvery', () => {
  it('passes the first call on, drops the calls of the following interval, and passes the next one after it', () => {
    const clock = { now: 1_000 };
    const seen: string[] = [];
    const report = onceEvery(10_000, (message: string) => void seen.push(message), () => clock.now);
    report('first');
    clock.now = 10_999;
    report('dropped');
    clock.now = 11_000;
    report('second');
    report('dropped too');
    expect(seen).toEqual(['first', 'second']);
  });
});
