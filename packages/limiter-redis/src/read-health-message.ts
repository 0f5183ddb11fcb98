import type { HealthMark } from '@signalbox/engine';

/** What an instance publishes: its own id (so it can ignore its own marks) and the mark. */
export type HealthMessage = { origin: string; mark: HealthMark };

const DISABLED_REASONS = new Set(['upstream-401', 'upstream-403', 'key-missing']);

/** A message read from the channel, or `undefined` for anything that is not one (never trusted blindly). */
export function readHealthMessage(text: string): HealthMessage | undefined {
  const parsed = parseJSON(text);
  if (!isObject(parsed) || typeof parsed.origin !== 'string') return undefined;
  const mark = readHealthMark(parsed.mark);
  return mark && { origin: parsed.origin, mark };
}

/** A mark kept under a key (its JSON text), or `undefined` for anything that is not one. */
export function readKeptMark(text: string): HealthMark | undefined {
  return readHealthMark(parseJSON(text));
}

/** A mark kept under a key or carried by a message, checked field by field; `undefined` when it is not one. */
function readHealthMark(value: unknown): HealthMark | undefined {
  if (!isObject(value) || typeof value.upstream !== 'string') return undefined;
  const { kind, upstream, credential, until, reason } = value;
  const named = typeof credential === 'string' ? credential : undefined;
  const time = typeof until === 'number' && Number.isFinite(until) ? until : undefined;
  switch (kind) {
    case 'cooldown':
      return named !== undefined && time !== undefined ? { kind, upstream, credential: named, until: time } : undefined;
    case 'circuit-open':
      return time === undefined ? undefined : { kind, upstream, ...(named !== undefined && { credential: named }), until: time };
    case 'circuit-closed':
      return { kind, upstream, ...(named !== undefined && { credential: named }) };
    case 'disabled':
      return named !== undefined && typeof reason === 'string' && DISABLED_REASONS.has(reason)
        ? { kind, upstream, credential: named, reason: reason as Extract<HealthMark, { kind: 'disabled' }>['reason'] }
        : undefined;
    case 'enabled':
      return named === undefined ? undefined : { kind, upstream, credential: named };
    default:
      return undefined;
  }
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
