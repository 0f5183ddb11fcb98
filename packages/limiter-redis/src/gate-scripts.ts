import { IDLE_KEY_MARGIN_MS, LUA_CLOCK } from './lua-clock';

/**
 * One key's concurrency gate in five Redis keys (KEYS[1..5], see `gateKeys`):
 * - `holders`: a sorted set of held slots, each a lease scored by when it expires;
 * - `starts`: the same leases scored by when they were granted (the oldest holder's age);
 * - `queue`: waiting tickets scored by a shared arrival number, so the head is the oldest waiter of
 *   any instance;
 * - `tickets`: the same tickets scored by when they expire (a waiter renews its ticket as it polls);
 * - `state`: a hash of the key's limit as the latest `acquire` saw it, the moving average of hold
 *   times and the arrival counter.
 * Every script first drops expired leases and tickets (`tidy`) and hands free slots to the head of
 * the queue (`grant`), so a slot of a dead instance returns to the queue's first waiter, never to a
 * newcomer. When a key has no holder and no waiter its state is deleted, as the memory gate forgets
 * an idle key.
 */
export const LUA_GATE = `
${LUA_CLOCK}
local holders, starts, queue, tickets, state = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]

local function tidy(now)
  for _, lease in ipairs(redis.call('ZRANGEBYSCORE', holders, '-inf', int(now))) do
    redis.call('ZREM', holders, lease)
    redis.call('ZREM', starts, lease)
  end
  for _, ticket in ipairs(redis.call('ZRANGEBYSCORE', tickets, '-inf', int(now))) do
    redis.call('ZREM', tickets, ticket)
    redis.call('ZREM', queue, ticket)
  end
end

local function hold(id, now, leaseMs)
  redis.call('ZADD', holders, int(now + leaseMs), id)
  redis.call('ZADD', starts, int(now), id)
end

local function grant(now, leaseMs)
  local concurrency = tonumber(redis.call('HGET', state, 'concurrency')) or 0
  local given = {}
  while redis.call('ZCARD', holders) < concurrency do
    local head = redis.call('ZRANGE', queue, 0, 0)[1]
    if not head then break end
    redis.call('ZREM', queue, head)
    redis.call('ZREM', tickets, head)
    hold(head, now, leaseMs)
    given[#given + 1] = head
  end
  return given
end

local function snapshot(now)
  local oldest = redis.call('ZRANGE', starts, 0, 0, 'WITHSCORES')[2] or ''
  local average = redis.call('HGET', state, 'average') or ''
  return {int(now), redis.call('ZCARD', holders), redis.call('ZCARD', queue), average, oldest}
end

local function keepOrDrop(leaseMs)
  if redis.call('ZCARD', holders) == 0 and redis.call('ZCARD', queue) == 0 then
    redis.call('DEL', holders, starts, queue, tickets, state)
    return
  end
  local ttl = int(leaseMs * 2 + ${IDLE_KEY_MARGIN_MS})
  for _, key in ipairs({holders, starts, queue, tickets, state}) do redis.call('PEXPIRE', key, ttl) end
end

local now = clock(ARGV[1])
local leaseMs = tonumber(ARGV[2])
local id = ARGV[3]
tidy(now)
`;

/** The acquire script's steps after the gate's prelude; `ENTER_SCRIPT` runs them after its admission. */
export const LUA_ACQUIRE = `
local concurrency = tonumber(ARGV[4])
redis.call('HSET', state, 'concurrency', concurrency)
local given = grant(now, leaseMs)
local outcome = 'refused'
if redis.call('ZCARD', queue) == 0 and redis.call('ZCARD', holders) < concurrency then
  hold(id, now, leaseMs)
  outcome = 'held'
elseif redis.call('ZCARD', queue) < tonumber(ARGV[5]) then
  redis.call('ZADD', queue, redis.call('HINCRBY', state, 'arrivals', 1), id)
  redis.call('ZADD', tickets, int(now + leaseMs), id)
  outcome = 'queued'
end
local reply = {outcome, given, snapshot(now)}
keepOrDrop(leaseMs)
return reply
`;

/**
 * ARGV: now, lease ms, lease id, concurrency, queue size. Takes a free slot when no one is queued
 * (`held`), else a ticket at the back of the queue when it has room (`queued`), else `refused`.
 * Returns `{ outcome, granted tickets, snapshot }`.
 */
export const ACQUIRE_SCRIPT = `
${LUA_GATE}
${LUA_ACQUIRE}
`;

/**
 * ARGV: now, lease ms, ticket. A waiter's periodic call: picks up a slot granted to its ticket
 * (`held`, the lease renewed), renews a ticket still queued (`waiting`), or finds it gone (`gone`:
 * the ticket expired because its waiter did not renew it in time). Returns `{ outcome, granted }`.
 */
export const POLL_SCRIPT = `
${LUA_GATE}
local given = grant(now, leaseMs)
local outcome = 'gone'
if redis.call('ZSCORE', holders, id) then
  redis.call('ZADD', holders, int(now + leaseMs), id)
  outcome = 'held'
elseif redis.call('ZSCORE', queue, id) then
  redis.call('ZADD', tickets, int(now + leaseMs), id)
  outcome = 'waiting'
end
keepOrDrop(leaseMs)
return {outcome, given}
`;

/**
 * ARGV: now, lease ms, ticket, keep ('1' or '0'). A waiter leaves the queue: its queue time ran out
 * (keep = '1': a slot granted meanwhile is kept, `held`) or its client left (keep = '0': a slot
 * granted meanwhile goes to the next waiter). Returns `{ outcome, granted, snapshot }`.
 */
export const LEAVE_SCRIPT = `
${LUA_GATE}
redis.call('ZREM', queue, id)
redis.call('ZREM', tickets, id)
local outcome = 'left'
if redis.call('ZSCORE', holders, id) then
  if ARGV[4] == '1' then
    redis.call('ZADD', holders, int(now + leaseMs), id)
    outcome = 'held'
  else
    redis.call('ZREM', holders, id)
    redis.call('ZREM', starts, id)
  end
end
local given = grant(now, leaseMs)
local reply = {outcome, given, snapshot(now)}
keepOrDrop(leaseMs)
return reply
`;

/**
 * ARGV: now, lease ms, lease id. Frees a held slot once (a second call finds nothing), adds its hold
 * time to the key's moving average (weight ARGV[4]) and hands the slot to the queue's head.
 * Returns the granted tickets.
 */
export const RELEASE_SCRIPT = `
${LUA_GATE}
local given = {}
local started = tonumber(redis.call('ZSCORE', starts, id))
if redis.call('ZREM', holders, id) == 1 then
  redis.call('ZREM', starts, id)
  local held = math.max(0, now - (started or now))
  local average = tonumber(redis.call('HGET', state, 'average'))
  if average then average = average + tonumber(ARGV[4]) * (held - average) else average = held end
  redis.call('HSET', state, 'average', string.format('%.17g', average))
  given = grant(now, leaseMs)
end
keepOrDrop(leaseMs)
return given
`;

/**
 * ARGV: now, lease ms, lease id. Renews a held lease; returns 0 when the lease had already expired
 * (its slot may belong to someone else by now, so it is never revived).
 */
export const HEARTBEAT_SCRIPT = `
${LUA_GATE}
if not redis.call('ZSCORE', holders, id) then return 0 end
redis.call('ZADD', holders, int(now + leaseMs), id)
keepOrDrop(leaseMs)
return 1
`;
