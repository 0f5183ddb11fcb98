import type { AffinityPin } from '@signalbox/engine';

/** How a pin is kept in Redis: the JSON array `[upstream, credential]` of its config names. */
export function keptPinText(pin: AffinityPin): string {
  return JSON.stringify([pin.upstream, pin.credential]);
}

/** A pin kept under a conversation's key, or `undefined` for anything that is not one (never trusted blindly). */
export function readKeptPin(text: string): AffinityPin | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
  const [upstream, credential] = parsed as unknown[];
  return typeof upstream === 'string' && typeof credential === 'string' && upstream !== '' && credential !== '' ? { upstream, credential } : undefined;
}
