import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The options of V8's `gc` function (https://chromium.googlesource.com/v8/v8/+/refs/heads/main/src/extensions/gc-extension.cc). */
type CollectGarbage = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Runs one garbage collection that gives memory back to the system, as V8 does under memory
 * pressure: start-up's surviving objects grow V8's young generation to its limit, and an idle
 * server would hold those pages resident until its next collection. Call it once, after start-up;
 * under load the young generation grows again as V8 sees fit.
 */
export function releaseStartUpMemory(): void {
  // `--expose-gc` gives `gc` to the contexts created while it is set, never to the server's own.
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as CollectGarbage)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
