import { formatSSEComment } from './format-sse-frame';

export type KeepAlive = {
  /** Call after every write: the stream counts as heard, so pings go out only during silences. */
  touch(): void;
  stop(): void;
};

/** Where pings go: anything with a `write(frame)` (a Node response as it is), so a stream needs no closure for it. */
export type KeepAliveWriter = { write(frame: string): unknown };

/**
 * Writes `: keep-alive` comment frames to `writer` while a stream is silent, so proxies and clients
 * do not time out during long upstream pauses. A write only marks the stream heard, with no timer
 * re-armed per frame: a tick every half interval pings a stream not heard since the tick before, so
 * no silence lasts `intervalMs` without a ping, and none shorter than half of it gets one. Streams of
 * one interval share that tick: an open stream holds no timer of its own.
 */
export function createKeepAlive(writer: KeepAliveWriter, intervalMs: number): KeepAlive {
  return new IntervalKeepAlive(writer, intervalMs);
}

const KEEP_ALIVE_FRAME = formatSSEComment('keep-alive');

/** The streams of one tick length, and the one timer that ticks for them while there are any. */
type Wheel = { tickMs: number; streams: Set<IntervalKeepAlive>; timer: NodeJS.Timeout };

/** The wheels by tick length in ms: one per keep-alive interval in use (a gateway has one). */
const wheels = new Map<number, Wheel>();

/** One object per stream, in its wheel's set while it runs: its methods shared, no closure per stream. */
class IntervalKeepAlive implements KeepAlive {
  // Heard at the start: a stream silent from its first byte is pinged within a whole interval, too.
  heard = true;
  private wheel: Wheel | undefined;

  constructor(
    readonly writer: KeepAliveWriter,
    intervalMs: number,
  ) {
    if (intervalMs > 0) this.wheel = join(this, Math.max(1, Math.floor(intervalMs / 2)));
  }

  touch(): void {
    this.heard = true;
  }

  stop(): void {
    if (this.wheel) leave(this, this.wheel);
    this.wheel = undefined;
  }
}

/** Puts `keepAlive` on the wheel ticking every `tickMs`, started (unreferenced) for the first stream. */
function join(keepAlive: IntervalKeepAlive, tickMs: number): Wheel {
  let wheel = wheels.get(tickMs);
  if (!wheel) {
    const streams = new Set<IntervalKeepAlive>();
    wheel = { tickMs, streams, timer: setInterval(tick, tickMs, streams).unref() };
    wheels.set(tickMs, wheel);
  }
  wheel.streams.add(keepAlive);
  return wheel;
}

/** Takes `keepAlive` off its wheel, whose timer stops with its last stream. */
function leave(keepAlive: IntervalKeepAlive, wheel: Wheel): void {
  wheel.streams.delete(keepAlive);
  if (wheel.streams.size > 0) return;
  clearInterval(wheel.timer);
  wheels.delete(wheel.tickMs);
}

function tick(streams: Set<IntervalKeepAlive>): void {
  for (const keepAlive of streams) {
    // A ping counts as heard too: a long silence gets one ping per interval, not one per tick.
    if (!keepAlive.heard) keepAlive.writer.write(KEEP_ALIVE_FRAME);
    keepAlive.heard = !keepAlive.heard;
  }
}
