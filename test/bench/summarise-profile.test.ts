import { formatProfileSummary, mainThreadProfile, packageOf, summariseProfile, type CpuProfile } from '../../scripts/bench/summarise-profile.mjs';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 4 });

/**
 * A tiny profile: the root, an engine function, an undici function, a node internal, the garbage
 * collector and idle time. A sample's interval is the next sample's time delta (the last one gets
 * the average), as V8 records them.
 */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)') },
    { id: 2, callFrame: frame('runPipeline', 'file:///home/ci/signalbox/packages/engine/dist/run-pipeline.js', 9) },
    { id: 3, callFrame: frame('request', 'file:///home/ci/signalbox/node_modules/.pnpm/undici@7.0.0/node_modules/undici/lib/api/api-request.js', 99) },
    { id: 4, callFrame: frame('writeGeneric', 'node:internal/stream_base_commons', 150) },
    { id: 5, callFrame: frame('(garbage collector)') },
    { id: 6, callFrame: frame('(idle)') },
  ],
  startTime: 0,
  endTime: 1_000,
  samples: [2, 2, 3, 4, 5, 6, 2, 3, 6, 2],
  timeDeltas: [0, 100, 100, 100, 100, 100, 100, 100, 100, 100],
};

describe('summariseProfile', () => {
  it('adds up self time by package, idle apart, and shares it of the busy time', () => {
    const summary = summariseProfile(profile);

    expect(summary.totalUs).toBe(1_000);
    expect(summary.busyUs).toBe(800);
    expect(summary.packages).toEqual([
      { name: 'packages/engine', selfUs: 400, share: 0.5 },
      { name: 'node_modules/undici', selfUs: 200, share: 0.25 },
      { name: '(idle)', selfUs: 200, share: Number.NaN },
      { name: 'node internals', selfUs: 100, share: 0.125 },
      { name: '(garbage collector)', selfUs: 100, share: 0.125 },
    ]);
  });

  it('lists the functions with the most self time first, with where they are from the package folder on, cut to top', () => {
    const summary = summariseProfile(profile, { top: 2 });

    expect(summary.functions).toEqual([
      { name: 'runPipeline', where: 'packages/engine/dist/run-pipeline.js:10:5', package: 'packages/engine', selfUs: 400, share: 0.5 },
      { name: 'request', where: 'node_modules/undici/lib/api/api-request.js:100:5', package: 'node_modules/undici', selfUs: 200, share: 0.25 },
    ]);
  });

  it('prints the summary as a package table and a function table', () => {
    const text = formatProfileSummary(summariseProfile(profile, { top: 1 }));

    expect(text.split('\n')).toEqual([
      'busy 0.8 ms of 1.0 ms sampled',
      '',
      '| package | self ms | share of busy |',
      '|---|---|---|',
      '| packages/engine | 0.4 | 50.0 % |',
      '| node_modules/undici | 0.2 | 25.0 % |',
      '| (idle) | 0.2 |  |',
      '| node internals | 0.1 | 12.5 % |',
      '| (garbage collector) | 0.1 | 12.5 % |',
      '',
      '| function | where | self ms | share of busy |',
      '|---|---|---|---|',
      '| runPipeline | packages/engine/dist/run-pipeline.js:10:5 | 0.4 | 50.0 % |',
    ]);
  });
});

describe('packageOf', () => {
  it('names scoped node_modules packages with their scope and sorts natives and wasm apart', () => {
    expect(packageOf(frame('parse', 'file:///app/node_modules/@pinojs/redact/index.js'))).toBe('node_modules/@pinojs/redact');
    expect(packageOf(frame('main', 'file:///app/examples/server/dist/main.js'))).toBe('examples/server');
    expect(packageOf(frame('writev'))).toBe('node internals');
    expect(packageOf(frame('(program)'))).toBe('(program: native, outside JavaScript)');
    expect(packageOf(frame('execute', 'wasm://wasm/00034eea'))).toBe("wasm (undici's HTTP parser)");
  });
});

describe('mainThreadProfile', () => {
  it('picks the event loop’s profile (thread id 0) among those of the worker threads, whatever their order', () => {
    const names = ['CPU.20261127.154730.32502.2.003.cpuprofile', 'CPU.20261127.154730.32502.1.002.cpuprofile', 'CPU.20261127.154730.32502.0.001.cpuprofile', 'notes.txt'];

    expect(mainThreadProfile(names)).toBe('CPU.20261127.154730.32502.0.001.cpuprofile');
    expect(mainThreadProfile(names.slice(0, 2))).toBeUndefined();
  });
});
