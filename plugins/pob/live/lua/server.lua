-- mcphost's Path of Building server: runs an unmodified PoB headless (cwd = <pob>/src) and
-- speaks JSON lines on stdio. The first line out is a banner:
--   {"ready":true,"protocol":1,"pob":{...}}  or  {"ready":false,"error":{"code":..,"message":..}}
-- then one response per request line, correlated by id:
--   in:  {"id":1,"action":"get_stats","params":{"fields":["Life"]}}
--   out: {"id":1,"ok":true,"result":{...},"ms":0.8}  or  {"id":1,"ok":false,"error":{"code":..,"message":..}}
-- The process exits when stdin closes or on the `quit` action.
local PROTOCOL = 1

local stdin, stdout, stderr = io.stdin, io.stdout, io.stderr
local json = require("mcphost_json")
local headless = require("mcphost_headless")

local function send(message)
  stdout:write(json.encode(message), "\n")
  stdout:flush()
end

local info, bootError = headless.boot()
if not info then
  send({ ready = false, protocol = PROTOCOL, error = bootError })
  os.exit(2)
end

local buildActions = require("mcphost_build")
local treeActions = require("mcphost_tree")
local stats = require("mcphost_stats")

local actions = {}

function actions.ping()
  return { pong = true }
end

function actions.version()
  return {
    protocol = PROTOCOL,
    pob = info,
    treeVersions = json.array({ unpack(treeVersionList or {}) }),
    loaded = buildActions.state.loaded,
    loads = buildActions.state.loads,
    memoryKb = collectgarbage("count"),
  }
end

function actions.get_stats(params)
  buildActions.requireBuild()
  local output = build.calcsTab.mainOutput
  if params.fields then
    if type(params.fields) ~= "table" then buildActions.fail("BAD_PARAMS", "fields must be a list of stat names") end
    local values, missing = stats.pick(build, output, params.fields)
    return { stats = values, missing = json.array(missing) }
  end
  local result = { stats = stats.scalars(output) }
  if type(output.Minion) == "table" then result.minion = stats.scalars(output.Minion) end
  if params.display then result.display = json.array(stats.display(build, output)) end
  return result
end

for _, module in ipairs({ buildActions, treeActions }) do
  for name, fn in pairs(module) do
    if type(fn) == "function" and name:match("^[a-z]+_[a-z_]+$") then actions[name] = fn end
  end
end

local function errorOf(err)
  if type(err) == "table" and err.code then return err end
  return { code = "LUA_ERROR", message = headless.plain(err) }
end

local function handle(line)
  local request, parseError = json.decode(line)
  if type(request) ~= "table" then
    send({ ok = false, error = { code = "BAD_REQUEST", message = parseError or "a request must be a JSON object" } })
    return
  end
  local id, name = request.id, request.action
  if name == "quit" then
    send({ id = id, ok = true, result = { bye = true } })
    os.exit(0)
  end
  local fn = actions[name]
  if not fn then
    local names = {}
    for k in pairs(actions) do names[#names + 1] = k end
    table.sort(names)
    send({ id = id, ok = false, error = { code = "UNKNOWN_ACTION", message = "unknown action " .. tostring(name) .. " (actions: " .. table.concat(names, ", ") .. ", quit)" } })
    return
  end
  local params = type(request.params) == "table" and request.params or {}
  local started = headless.now()
  local ok, result = xpcall(function() return fn(params) end, function(err)
    if type(err) == "table" then return err end
    return { code = "LUA_ERROR", message = headless.plain(err), data = { traceback = debug.traceback() } }
  end)
  -- `ms`: how long the action took in Lua, so a client can tell its own overhead from PoB's work.
  local ms = headless.now() - started
  if ok then
    send({ id = id, ok = true, result = result, ms = ms })
  else
    local e = errorOf(result)
    if e.code == "LUA_ERROR" then stderr:write("action ", tostring(name), " failed: ", e.message, "\n", e.data and e.data.traceback or "", "\n") end
    send({ id = id, ok = false, error = { code = e.code, message = e.message, data = e.code ~= "LUA_ERROR" and e.data or nil }, ms = ms })
  end
end

send({ ready = true, protocol = PROTOCOL, pob = info })

while true do
  local line = stdin:read("*l")
  if line == nil then break end
  if line:match("%S") then handle(line) end
end
os.exit(0)
