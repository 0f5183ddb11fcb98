import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCheckpointWorker } from './start-checkpoint-worker';

const directory = mkdtempSync(join(tmpdir(), 'signalbox-checkpoint-worker-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('startCheckpointWorker', () => {
  it('reports a thread that could not open the file and says it is lost, so the store checkpoints itself again', async () => {
    const errors: unknown[] = [];
    const lost = new Promise<void>(resolve => {
      // A folder is not a database: the thread fails as it opens it.
      startCheckpointWorker(directory, {
        intervalMs: 10,
        busyTimeoutMs: 0,
        onError: error => errors.push(error),
        onLost: resolve,
      });
    });
    await lost;
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/unable to open database file/);
  });

  it('stops when told, and is not reported lost', async () => {
    const onLost = jest.fn();
    const stop = startCheckpointWorker(join(directory, 'stopped.sqlite'), {
      intervalMs: 10,
      busyTimeoutMs: 0,
      onError: jest.fn(),
      onLost,
    });
    await stop();
    await stop();
    expect(onLost).not.toHaveBeenCalled();
  });

  it('keeps the process alive until the thread has closed, when nothing else does', () => {
    // A process of its own, whose event loop holds nothing but the thread: awaiting the stop must
    // finish (a start-up failure closes the store that way, then prints why and sets the exit code).
    // CommonJS, as the thread's program is: Node strips the types of the required source.
    const program = [
      `const { startCheckpointWorker } = require(${JSON.stringify(join(__dirname, 'start-checkpoint-worker.ts'))});`,
      `const stop = startCheckpointWorker(${JSON.stringify(join(directory, 'alone.sqlite'))}, {`,
      '  intervalMs: 10, busyTimeoutMs: 0, onError: error => console.error(String(error)), onLost: () => console.error(\'lost\'),',
      '});',
      "stop().then(() => { console.log('stopped'); process.exitCode = 3; });",
    ].join('\n');
    const result = spawnSync(process.execPath, ['--no-warnings', '--eval', program], { encoding: 'utf8', timeout: 20_000 });
    expect({ status: result.status, stdout: result.stdout.trim(), stderr: result.stderr }).toEqual({ status: 3, stdout: 'stopped', stderr: '' });
  });
});
