import SlowTestsFirstSequencer from '../slow-tests-first-sequencer';

/**
 * The order jest starts test files in without timings (a fresh clone): the known-slow files first,
 * slowest first, then the others as jest orders them (largest first).
 */
describe('test/slow-tests-first-sequencer.js', () => {
  const rootDir = '/checkout';
  const sizes = new Map([
    ['/checkout/packages/core/src/big.test.ts', 9000],
    ['/checkout/packages/core/src/small.test.ts', 100],
    ['/checkout/test/fuzz/random-paths.test.ts', 50],
    ['/checkout/test/scale-out/two-instances.test.ts', 10],
    ['/checkout/test/packaging/packed-packages-install.test.ts', 20],
  ]);
  const context = { config: { rootDir, cache: false }, hasteFS: { getSize: (path: string) => sizes.get(path) ?? null } };
  const order = (paths: string[]) =>
    new SlowTestsFirstSequencer({ contexts: [context], globalConfig: {} })
      .sort(paths.map(path => ({ path, context })))
      .map(test => test.path.slice(rootDir.length + 1));

  it('starts the known-slow files first, in the order of its list, and the others largest first', () => {
    expect(order([...sizes.keys()])).toEqual([
      'test/packaging/packed-packages-install.test.ts',
      'test/scale-out/two-instances.test.ts',
      'test/fuzz/random-paths.test.ts',
      'packages/core/src/big.test.ts',
      'packages/core/src/small.test.ts',
    ]);
  });

  it('orders the same files the same way whatever order they come in', () => {
    expect(order([...sizes.keys()].reverse())).toEqual(order([...sizes.keys()]));
  });
});
