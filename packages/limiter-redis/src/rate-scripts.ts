import { IDLE_KEY_MARGIN_MS, LUA_CLOCK } from './lua-clock';

/**
 * Fixed windows as Redis hashes `{ used, ends }`: a window is open while `ends` is after the call's
 * clock, opens with the first point counted and lasts its length, exactly like the memory limiter's
 * `createFixedWindows`. Every key of one call is read and written inside one script, so the check
 * and the count are one atomic step across all instances.
 */
const LUA_WINDOWS = `
${LUA_CLOCK}
local function readWindow(key, now)
  local values = redis.call('HMGET', key, 'used', 'ends')
  local ends = tonumber(values[2])
  if not ends or ends <= now then return nil, nil end
  return tonumber(values[1]), ends - now
end

local function addWindow(key, points, windowMs, now)
  local used = readWindow(key, now)
  if used then
    redis.call('HINCRBY', key, 'used', int(points))
  else
    redis.call('HSET', key, 'used', int(points), 'ends', int(now + windowMs))
    redis.call('PEXPIRE', key, int(windowMs + ${IDLE_KEY_MARGIN_MS}))
  end
end
`;

/**
 * KEYS: quota, requests window, tokens window.
 * ARGV: now ('' = server time), quota limit ('' = none), quota period ms, request limit ('' = none),
 * token limit ('' = none), window ms, whole estimated tokens.
 * Returns `{'ok'}`, `{'quota', used, msLeft}`, `{'never-fit'}`, `{'tokens', used, msLeft}` or
 * `{'requests', used, msLeft}`; a refused request counts nothing.
 */
export const ADMIT_SCRIPT = `
${LUA_WINDOWS}
local now = clock(ARGV[1])
local quotaLimit = tonumber(ARGV[2])
local quotaPeriodMs = tonumber(ARGV[3])
local requestLimit = tonumber(ARGV[4])
local tokenLimit = tonumber(ARGV[5])
local windowMs = tonumber(ARGV[6])
local needed = tonumber(ARGV[7])
if quotaLimit then
  local used, left = readWindow(KEYS[1], now)
  if used and used >= quotaLimit then return {'quota', used, left} end
end
if tokenLimit then
  if needed > tokenLimit then return {'never-fit'} end
  local used, left = readWindow(KEYS[3], now)
  if used and (used >= tokenLimit or used + needed > tokenLimit) then return {'tokens', used, left} end
end
if requestLimit then
  local used, left = readWindow(KEYS[2], now)
  if used and used >= requestLimit then return {'requests', used, left} end
  addWindow(KEYS[2], 1, windowMs, now)
end
-- Counted even when the estimate is 0: the tokens window opens with the request, like the requests one.
if tokenLimit then addWindow(KEYS[3], needed, windowMs, now) end
if quotaLimit and needed > 0 then addWindow(KEYS[1], needed, quotaPeriodMs, now) end
return {'ok'}
`;

/**
 * KEYS: quota, tokens window. ARGV: now, quota limit ('' = none), quota period ms, token limit
 * ('' = none), window ms, whole tokens (> 0). Adds tokens learned after the fact; never refuses.
 */
export const CHARGE_SCRIPT = `
${LUA_WINDOWS}
local now = clock(ARGV[1])
local points = tonumber(ARGV[6])
if tonumber(ARGV[4]) then addWindow(KEYS[2], points, tonumber(ARGV[5]), now) end
if tonumber(ARGV[2]) then addWindow(KEYS[1], points, tonumber(ARGV[3]), now) end
return 1
`;
