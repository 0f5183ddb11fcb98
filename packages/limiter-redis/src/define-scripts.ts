import type { Redis } from 'ioredis';
import { ACQUIRE_SCRIPT, HEARTBEAT_SCRIPT, LEAVE_SCRIPT, POLL_SCRIPT, RELEASE_SCRIPT } from './gate-scripts';
import { ADMIT_SCRIPT, CHARGE_SCRIPT } from './rate-scripts';
import { ENTER_SCRIPT } from './enter-script';
import { limiterUnavailable } from './limiter-unavailable';

const SCRIPTS = {
  admit: { lua: ADMIT_SCRIPT, keys: 3 },
  charge: { lua: CHARGE_SCRIPT, keys: 2 },
  acquire: { lua: ACQUIRE_SCRIPT, keys: 5 },
  enter: { lua: ENTER_SCRIPT, keys: 8 },
  poll: { lua: POLL_SCRIPT, keys: 5 },
  leave: { lua: LEAVE_SCRIPT, keys: 5 },
  release: { lua: RELEASE_SCRIPT, keys: 5 },
  heartbeat: { lua: HEARTBEAT_SCRIPT, keys: 5 },
} as const;

export type ScriptName = keyof typeof SCRIPTS;

/** Runs one limiter script atomically; a Redis failure rejects with 503 `LIMITER_UNAVAILABLE`. */
export type RunScript = (name: ScriptName, keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

type ScriptCommand = (...args: (string | number)[]) => Promise<unknown>;

/**
 * Defines the scripts as ioredis commands (under names of their own, so a shared client's commands
 * are not touched). ioredis sends a script's body once per connection and its SHA afterwards, in
 * the connection's command order, so calls reach Redis in the order they were made: a release
 * made before a newcomer's acquire runs first, and the newcomer cannot take the released slot from
 * a waiter.
 */
export function defineScripts(redis: Redis): RunScript {
  const commands = redis as unknown as Record<string, ScriptCommand>;
  for (const [name, script] of Object.entries(SCRIPTS)) {
    const command = commandName(name as ScriptName);
    if (typeof commands[command] !== 'function') redis.defineCommand(command, { numberOfKeys: script.keys, lua: script.lua });
  }
  return async (name, keys, args) => {
    try {
      return await commands[commandName(name)]!(...keys, ...args);
    } catch (error) {
      throw limiterUnavailable(error);
    }
  };
}

function commandName(name: ScriptName): string {
  return `signalboxLimiter_${name}`;
}
