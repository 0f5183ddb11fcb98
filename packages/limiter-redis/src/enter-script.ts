import { LUA_ACQUIRE, LUA_GATE } from './gate-scripts';
import { LUA_ADMIT } from './rate-scripts';

/**
 * `admit` then `acquire` in one script, so a request with windows and a concurrency limit waits on
 * one round trip. KEYS: the five gate keys, then quota, requests window, tokens window. ARGV: the
 * acquire script's five (now, lease ms, lease id, concurrency, queue size), then `admit`'s limits.
 * A refusal of the windows or the quota is returned as the admit script returns it, touching no
 * slot; an admitted request is counted, then acquires exactly as the acquire script does (its
 * replies `held`, `queued`, `refused`), so a request refused a slot stays counted, as with two calls.
 */
export const ENTER_SCRIPT = `
${LUA_GATE}
${LUA_ADMIT}
local admitted = admit(KEYS[6], KEYS[7], KEYS[8], now, 6)
if admitted[1] ~= 'ok' then return admitted end
${LUA_ACQUIRE}
`;
