import type { Clock } from '../clock/clock';
import { deadlinePassed, shuttingDown } from './interruption-errors';

/**
 * How the transport stops a generation when its client leaves: a signal it aborts, or its
 * controller itself, which the engine aborts too (with a `GatewayError`) when it ends the request.
 * A `GatewayError` reason is the gateway's doing; any other reason is the client's.
 */
export type ClientStop = AbortSignal | AbortController;

/**
 * One generation the engine may end on its own. Its `signal` aborts, with the `GatewayError` the
 * client is to be told as the reason, when the engine's drain runs out of grace or the request's
 * deadline passes; and with the client's own reason when the client stops it first.
 */
export type Interruption = {
  readonly signal: AbortSignal;
  /** Ends the request `deadlineMs` after it started, wherever it is by then. */
  setDeadline(deadlineMs: number): void;
  /** The request is settled: stop watching it (its deadline is cancelled). Idempotent. */
  release(): void;
};

/** Every generation in flight in one engine, and the way to end them all at shutdown. */
export type Interruptions = {
  /**
   * Starts watching a generation that started at `startedAt` (on the engine's clock), which also
   * stops when the client does (`client`: its controller is then the watch's own). Throws 503
   * `SHUTTING_DOWN` once a drain has begun: the gateway takes no new generations.
   */
  watch(startedAt: number, client?: ClientStop): Interruption;
  /**
   * Refuses new generations, lets open ones run for up to `graceMs`, then interrupts the rest with
   * `SHUTTING_DOWN`, and resolves once every one of them is settled (its record written, its hold
   * released).
   */
  drain(graceMs: number): Promise<void>;
};

/** What every watched generation of one engine shares: the engine's clock, and the generations still open. */
type Watching = {
  clock: Pick<Clock, 'now' | 'schedule'>;
  open: Set<WatchedGeneration>;
  /** A watched generation settled: `open` has one fewer. */
  released(): void;
};

const NO_DEADLINE = (): void => undefined;

const ONCE = { once: true } as const;

/**
 * One watched generation, its methods on a shared prototype: a generation in flight (an open stream
 * among a thousand) holds one controller for the client leaving, its deadline and the drain (the
 * transport's own when it hands it over), its deadline's timer, and no closures of its own (it is
 * itself the listener on a client's signal).
 */
class WatchedGeneration implements Interruption {
  readonly signal: AbortSignal;
  readonly #controller: AbortController;
  readonly #startedAt: number;
  readonly #watching: Watching;
  #cancelDeadline = NO_DEADLINE;

  constructor(startedAt: number, watching: Watching, client: ClientStop | undefined) {
    this.#controller = client instanceof AbortController ? client : new AbortController();
    this.signal = this.#controller.signal;
    this.#startedAt = startedAt;
    this.#watching = watching;
    if (client instanceof AbortSignal) this.#follow(client);
  }

  /** The client's signal stops the generation too, with the client's reason. */
  #follow(clientSignal: AbortSignal): void {
    if (clientSignal.aborted) this.interrupt(clientSignal.reason);
    else clientSignal.addEventListener('abort', this, ONCE);
  }

  /** The client's signal aborted: the generation stops with the client's reason (an `EventListener` object). */
  handleEvent(event: Event): void {
    this.interrupt((event.target as AbortSignal).reason);
  }

  interrupt(reason: unknown): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
  }

  setDeadline(deadlineMs: number): void {
    this.#cancelDeadline();
    const { clock } = this.#watching;
    const remaining = Math.max(0, this.#startedAt + deadlineMs - clock.now());
    this.#cancelDeadline = clock.schedule(() => this.interrupt(deadlinePassed(deadlineMs)), remaining);
  }

  release(): void {
    this.#cancelDeadline();
    this.#cancelDeadline = NO_DEADLINE;
    if (this.#watching.open.delete(this)) this.#watching.released();
  }
}

export function createInterruptions(clock: Pick<Clock, 'now' | 'schedule'>): Interruptions {
  const open = new Set<WatchedGeneration>();
  let draining = false;
  let whenEmpty: (() => void)[] = [];
  const allSettled = (): Promise<void> => (open.size === 0 ? Promise.resolve() : new Promise(resolve => whenEmpty.push(resolve)));
  const watching: Watching = {
    clock,
    open,
    released() {
      if (open.size > 0) return;
      const waiting = whenEmpty;
      whenEmpty = [];
      for (const resolve of waiting) resolve();
    },
  };

  const watch = (startedAt: number, client?: ClientStop): Interruption => {
    if (draining) throw shuttingDown();
    const watched = new WatchedGeneration(startedAt, watching, client);
    open.add(watched);
    return watched;
  };

  return {
    watch,
    async drain(graceMs) {
      draining = true;
      let cancelGrace = (): void => undefined;
      const graceOver = new Promise<void>(resolve => {
        cancelGrace = clock.schedule(resolve, graceMs);
      });
      await Promise.race([allSettled(), graceOver]);
      cancelGrace();
      const reason = shuttingDown();
      for (const watched of open) watched.interrupt(reason);
      await allSettled();
    },
  };
}
