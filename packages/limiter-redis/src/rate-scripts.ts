import { IDLE_KEY_MARGIN_MS, LUA_CLOCK } from './lua-clock';

/**
 * Fixed windows as Redis hashes `{ used, ends }`: a window is open while `ends` is after the call's
 * clock, opens with the first point counted and lasts its length, exactly like the memory limiter's
 * `createFixedWindows`. Every key of one call is read and written inside one script, so the check
 * and the count are one atomic step across all instances.
 */
const LUA_WINDOWS = `
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
 * `admit(quotaKey, requestsKey, tokensKey, now, first)` with the limits in ARGV from `first` on:
 * quota limit ('' = none), quota period ms, request limit ('' = none), token limit ('' = none),
 * window ms, whole estimated tokens. Returns `{'ok'}`, `{'quota', used, msLeft}`, `{'never-fit'}`,
 * `{'tokens', used, msLeft}` or `{'requests', used, msLeft}`; a refused request counts nothing.
 */
export const LUA_ADMIT = `
${LUA_WINDOWS}
local function admit(quotaKey, requestsKey, tokensKey, now, first)
  local quotaLimit = tonumber(ARGV[first])
  local quotaPeriodMs = tonumber(ARGV[first + 1])
  local requestLimit = tonumber(ARGV[first + 2])
  local tokenLimit = tonumber(ARGV[first + 3])
  local windowMs = tonumber(ARGV[first + 4])
  local needed = tonumber(ARGV[first + 5])
  if quotaLimit then
    local used, left = readWindow(quotaKey, now)
    if used and used >= quotaLimit then return {'quota', used, left} end
  end
  if tokenLimit then
    if needed > tokenLimit then return {'never-fit'} end
    local used, left = readWindow(tokensKey, now)
    if used and (used >= tokenLimit or used + needed > tokenLimit) then return {'tokens', used, left} end
  end
  if requestLimit then
    local used, left = readWindow(requestsKey, now)
    if used and used >= requestLimit then return {'requests', used, left} end
    addWindow(requestsKey, 1, windowMs, now)
  end
  -- Counted even when the estimate is 0: the tokens window opens with the request, like the requests one.
  if tokenLimit then addWindow(tokensKey, needed, windowMs, now) end
  if quotaLimit and needed > 0 then addWindow(quotaKey, needed, quotaPeriodMs, now) end
  return {'ok'}
end
`;

/** KEYS: quota, requests window, tokens window. ARGV: now ('' = server time), then `admit`'s limits. */
export const ADMIT_SCRIPT = `
${LUA_CLOCK}
${LUA_ADMIT}
return admit(KEYS[1], KEYS[2], KEYS[3], clock(ARGV[1]), 2)
`;

/**
 * KEYS: quota, tokens window. ARGV: now, quota limit ('' = none), quota period ms, token limit
 * ('' = none), window ms, whole tokens (> 0). Adds tokens learned after the fact; never refuses.
 */
export const CHARGE_SCRIPT = `
${LUA_CLOCK}
${LUA_WINDOWS}
local now = clock(ARGV[1])
local points = tonumber(ARGV[6])
if tonumber(ARGV[4]) then addWindow(KEYS[2], points, tonumber(ARGV[5]), now) end
if tonumber(ARGV[2]) then addWindow(KEYS[1], points, tonumber(ARGV[3]), now) end
return 1
`;
