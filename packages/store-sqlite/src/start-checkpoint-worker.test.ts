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
});
