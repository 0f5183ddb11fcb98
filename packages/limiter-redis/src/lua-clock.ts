/**
 * Lua shared by every script. `clock(given)` is the one clock of a call: the caller's `now` when it
 * sent one (a limiter built with an injected clock), else the Redis server's own (`TIME`), so
 * instances whose system clocks disagree still open, close and expire the same windows and leases.
 * `int(n)` writes a number as whole digits: Lua's default formatting would turn large
 * millisecond timestamps into exponent notation when they are passed to a Redis command.
 */
export const LUA_CLOCK = `
local function clock(given)
  local now = tonumber(given)
  if now then return now end
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

local function int(number)
  return string.format('%d', number)
end
`;

/**
 * How long (real time) Redis keeps a key nobody touches, on top of the window or lease it holds.
 * Expiry of windows and leases is decided by the stored end times on the call's clock; this TTL only
 * collects keys of keys no longer used, so it errs on the long side.
 */
export const IDLE_KEY_MARGIN_MS = 60_000;
