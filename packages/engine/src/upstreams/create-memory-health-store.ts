import { markSubject, type CredentialHealthStore, type HealthMark } from './health-store';

/**
 * A `CredentialHealthStore` in process memory: the engines of one process that join it learn each
 * other's marks at once, as instances sharing Redis do. It keeps the latest cooldown and open
 * circuit of each subject for engines that join later (one entry per credential and upstream).
 */
export function createMemoryHealthStore(): CredentialHealthStore {
  const listeners = new Set<(mark: HealthMark) => void>();
  const kept = new Map<string, HealthMark>();
  return {
    join(listener) {
      listeners.add(listener);
      return {
        share(mark) {
          keep(kept, mark);
          for (const other of listeners) if (other !== listener) other(mark);
        },
        marks: async () => [...kept.values()],
        async leave() {
          listeners.delete(listener);
        },
      };
    },
  };
}

/** Keeps what a joining engine must catch up with: cooldowns and open circuits, dropped once closed or enabled. */
function keep(kept: Map<string, HealthMark>, mark: HealthMark): void {
  const subject = markSubject(mark);
  if (mark.kind === 'cooldown' || mark.kind === 'circuit-open') kept.set(`${mark.kind} ${subject}`, mark);
  if (mark.kind === 'circuit-closed') kept.delete(`circuit-open ${subject}`);
  if (mark.kind === 'enabled') {
    kept.delete(`cooldown ${subject}`);
    kept.delete(`circuit-open ${subject}`);
    kept.delete(`circuit-open ${markSubject({ kind: 'circuit-closed', upstream: mark.upstream })}`);
  }
}
