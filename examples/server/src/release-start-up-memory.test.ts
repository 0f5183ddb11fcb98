import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(__dirname, '../dist/release-start-up-memory.js');

describe('releaseStartUpMemory', () => {
  it("shrinks a young generation that surviving objects grew, and leaves no `gc` in the process's own context", () => {
    if (!existsSync(dist)) throw new Error(`Build first (pnpm exec tsc -b): ${dist} is missing`);
    // Like start-up: objects that survive a few collections grow V8's young generation, then are dropped.
    const script = `
      const { getHeapSpaceStatistics } = require('node:v8');
      const { releaseStartUpMemory } = require(${JSON.stringify(dist)});
      const youngBytes = () => getHeapSpaceStatistics().find(space => space.space_name === 'new_space').space_size;
      let kept = [];
      for (let index = 0; index < 400_000; index++) kept.push({ index, text: 'start-up object ' + index });
      const grown = youngBytes();
      kept = undefined;
      releaseStartUpMemory();
      process.stdout.write(JSON.stringify({ grown, released: youngBytes(), gc: typeof gc }));
    `;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000, env: { PATH: process.env.PATH ?? '' } });
    if (result.status !== 0) throw new Error(`the process failed: ${result.stderr}`);
    const { grown, released, gc } = JSON.parse(result.stdout) as { grown: number; released: number; gc: string };
    expect(grown).toBeGreaterThan(4 * 2 ** 20);
    expect(released).toBeLessThan(grown / 2);
    expect(gc).toBe('undefined');
  });
});
