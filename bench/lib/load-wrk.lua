-- wrk script for the benchmark: JSON-RPC POSTs with a fresh messageId and id per request, a
-- check of every reply, and one JSON result line at the end (parsed by bench/lib/load-wrk.mjs).
--
-- Script args (after "--"): the three pieces of rpcTemplate() from bench/lib/payload.mjs (so wrk
-- and autocannon send the same JSON: piece1 .. id .. piece2 .. messageId .. piece3), then the
-- echo text a correct reply carries.

local p1, p2, p3, echo
local counter, prefix = 0, ""
-- Global, not local: done() runs in another Lua state and reads it through thread:get("bad").
bad = 0

function init(args)
  p1, p2, p3, echo = args[1], args[2], args[3], args[4]
  -- A per-thread random prefix keeps messageIds unique across runs and threads.
  local f = io.open("/proc/sys/kernel/random/uuid", "r")
  prefix = f and f:read("*l") or tostring(os.time())
  if f then f:close() end
end

function request()
  counter = counter + 1
  local body = p1 .. counter .. p2 .. prefix .. "-" .. counter .. p3
  -- Method and headers come from the command line (-H), shared with autocannon's.
  return wrk.format("POST", nil, nil, body)
end

-- Same rule as looksCompleted() in payload.mjs: no JSON-RPC error, the echo artifact, completed.
-- Statuses above 399 are already counted by wrk itself (errors.status), so only 2xx/3xx land here.
function response(status, headers, body)
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

function done(summary, latency, requests)
  local mismatches = 0
  for _, t in ipairs(threads) do mismatches = mismatches + (t:get("bad") or 0) end
  local e = summary.errors
  io.write(string.format(
    '\n{"total":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"non2xx":%d,"errors":%d,"timeouts":%d,"mismatches":%d,"cpuTicks":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write, e.timeout, mismatches, cpu_ticks()))
end
