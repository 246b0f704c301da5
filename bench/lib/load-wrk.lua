-- wrk script for the benchmark: JSON-RPC POSTs with a fresh messageId and id per request, a
-- check of every reply, and one JSON result line at the end (parsed by bench/lib/load-wrk.mjs).
--
-- Script args (after "--"): the three pieces of rpcTemplate() from bench/lib/payload.mjs (so wrk
-- and autocannon send the same JSON: piece1 .. id .. piece2 .. messageId .. piece3), the echo
-- text a correct reply carries, and the number of connections.

-- Steady-state latency. wrk's own percentiles are not usable at high concurrency on a saturated
-- Node server: libuv (1.46, Node 20) accepts one connection per event-loop iteration, so the
-- first request of the 128th connection waits about 128 loop iterations to be accepted (1.7 s
-- for a server at 200 us a request), and wrk's coordinated-omission correction then adds dozens
-- of synthetic samples for each such wait, which alone makes a p99 of about a second (measured:
-- docs/performance.md, "Steady-state latency"). So each request carries its send time (CLOCK_MONOTONIC,
-- in microseconds) as its JSON-RPC id, the server echoes it, and the reply's latency is read
-- from it: one exact, uncorrected sample per request. Only requests sent once every connection
-- has been answered once (every connection accepted) are counted; the throughput of that window
-- is reported with them. wrk's own figures are reported too, for comparison.
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } concord_timespec;
int clock_gettime(int clk_id, concord_timespec *tp);
]]
local ts = ffi.new("concord_timespec")
local function now_us()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000000 + math.floor(tonumber(ts.tv_nsec) / 1000)
end

local p1, p2, p3, echo
local counter, prefix = 0, ""
-- Globals, not locals: done() runs in another Lua state and reads them through thread:get().
bad = 0
lat = {}         -- latencies (us) of the requests sent after ready_at
ready_at = -1    -- when every initial request had been answered (-1: never)
ramp_us = -1     -- ready_at minus the first request's send time
last_at = -1     -- when the last counted reply arrived
local first_reply_at, first_sent_at = nil, nil
local connections, initial_answered = 0, 0

function init(args)
  p1, p2, p3, echo, connections = args[1], args[2], args[3], args[4], tonumber(args[5])
  -- A per-thread random prefix keeps messageIds unique across runs and threads.
  local f = io.open("/proc/sys/kernel/random/uuid", "r")
  prefix = f and f:read("*l") or tostring(os.time())
  if f then f:close() end
end

function request()
  counter = counter + 1
  local sent = now_us()
  first_sent_at = first_sent_at or sent
  local body = p1 .. string.format("%.0f", sent) .. p2 .. prefix .. "-" .. counter .. p3
  -- Method and headers come from the command line (-H), shared with autocannon's.
  return wrk.format("POST", nil, nil, body)
end

-- Same rule as looksCompleted() in payload.mjs: no JSON-RPC error, the echo artifact, completed.
-- Statuses above 399 are already counted by wrk itself (errors.status), so only 2xx/3xx land here.
local function time_reply(body)
  local sent = tonumber(body:match('"id":(%d+)'))
  if not sent then return end
  local now = now_us()
  if not first_reply_at then first_reply_at = now end
  if ready_at < 0 then
    if sent < first_reply_at then
      initial_answered = initial_answered + 1
      -- Every request sent before the first reply is some connection's first one; once one
      -- per connection is answered, every connection has been accepted.
      if initial_answered == connections then
        ready_at = now
        ramp_us = now - first_sent_at
      end
    end
    return
  end
  if sent >= ready_at then
    lat[#lat + 1] = now - sent
    last_at = now
  end
end

function response(status, headers, body)
  time_reply(body)
  if status > 399 then return end
  if status ~= 200
    or string.find(body, '"error"', 1, true)
    or not string.find(body, echo, 1, true)
    or not (string.find(body, '"completed"', 1, true) or string.find(body, "TASK_STATE_COMPLETED", 1, true))
  then
    bad = bad + 1
  end
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

-- wrk's own CPU time (utime + stime, in clock ticks) from /proc/self/stat, for outside-load accounting.
local function cpu_ticks()
  local f = io.open("/proc/self/stat", "r")
  if not f then return -1 end
  local stat = f:read("*l")
  f:close()
  local rest = stat:sub(stat:find(")", 1, true) + 2)
  local fields = {}
  for v in rest:gmatch("%S+") do table.insert(fields, v) end
  return tonumber(fields[12]) + tonumber(fields[13])
end

local function percentile(sorted, p)
  if #sorted == 0 then return -1 end
  return sorted[math.max(1, math.ceil(#sorted * p / 100))]
end

function done(summary, latency, requests)
  local mismatches = 0
  local all, window, ramp = {}, 0, -1
  for _, t in ipairs(threads) do
    mismatches = mismatches + (t:get("bad") or 0)
    for _, v in ipairs(t:get("lat") or {}) do all[#all + 1] = v end
    local r, l = t:get("ready_at"), t:get("last_at")
    if r >= 0 and l > r then window = math.max(window, l - r) end
    ramp = math.max(ramp, t:get("ramp_us"))
  end
  table.sort(all)
  local e = summary.errors
  io.write(string.format(
    '\n{"total":%d,"durationUs":%d,"wrkP50Us":%d,"wrkP99Us":%d,"steady":%d,"steadyUs":%d,"rampUs":%d,' ..
    '"p50Us":%d,"p99Us":%d,"maxUs":%d,"non2xx":%d,"errors":%d,"timeouts":%d,"mismatches":%d,"cpuTicks":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    #all, window, ramp, percentile(all, 50), percentile(all, 99), all[#all] or -1,
    e.status, e.connect + e.read + e.write, e.timeout, mismatches, cpu_ticks()))
end
