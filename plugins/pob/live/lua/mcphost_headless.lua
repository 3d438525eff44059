-- Boots an unmodified Path of Building through its own HeadlessWrapper.lua, then replaces the
-- few globals the wrapper stubs out (see the plugin README): logging to stderr, stdin kept for
-- the protocol, zlib Inflate/Deflate, a script path and a working file search.
local M = {}

local stderr = io.stderr

local function log(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  stderr:write(table.concat(parts, "\t"), "\n")
end

-- PoB colour codes (^1, ^xRRGGBB) stripped from messages meant for people.
function M.plain(text)
  return (tostring(text or ""):gsub("%^x%x%x%x%x%x%x", ""):gsub("%^%d", ""))
end

local function shellQuote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- A glob on the last path component (`*`, `?`) as a Lua pattern.
local function globPattern(glob)
  return "^" .. glob:gsub("[%^%$%(%)%%%.%[%]%+%-]", "%%%0"):gsub("%*", ".*"):gsub("%?", ".") .. "$"
end

local function modifiedTime(path)
  local p = io.popen("stat -c %Y " .. shellQuote(path) .. " 2>/dev/null || stat -f %m " .. shellQuote(path) .. " 2>/dev/null")
  if not p then return 0 end
  local out = p:read("*l")
  p:close()
  return tonumber(out) or 0
end

local searchClass = {}
searchClass.__index = searchClass
function searchClass:GetFileName() return self.names[self.index] end
function searchClass:GetFileModifiedTime() return modifiedTime(self.dir .. "/" .. self.names[self.index]) end
function searchClass:GetFileSize()
  local f = io.open(self.dir .. "/" .. self.names[self.index], "rb")
  if not f then return 0 end
  local size = f:seek("end")
  f:close()
  return size
end
function searchClass:NextFile()
  self.index = self.index + 1
  return self.names[self.index] ~= nil
end

-- SimpleGraphic's NewFileSearch(pattern, wantDirectories): a handle on the first match, or nil.
local function newFileSearch(spec, wantDirs)
  local dir, glob = spec:match("^(.*)/([^/]*)$")
  if not dir then dir, glob = ".", spec end
  if dir == "" then dir = "/" end
  local p = io.popen("ls -1pa " .. shellQuote(dir) .. " 2>/dev/null")
  if not p then return nil end
  local names, pattern = {}, globPattern(glob)
  for entry in p:lines() do
    local isDir = entry:sub(-1) == "/"
    local name = isDir and entry:sub(1, -2) or entry
    if name ~= "." and name ~= ".." and (isDir == (wantDirs == true)) and name:match(pattern) then
      names[#names + 1] = name
    end
  end
  p:close()
  if #names == 0 then return nil end
  table.sort(names)
  return setmetatable({ dir = dir, names = names, index = 1 }, searchClass)
end

local function installZlib(zlib)
  Inflate = function(data)
    if not data or data == "" then return nil end
    local ok, out = pcall(function() return zlib.inflate()(data) end)
    if ok then return out end
    log("Inflate failed: " .. tostring(out))
    return nil
  end
  Deflate = function(data)
    return zlib.deflate(9)(data or "", "finish")
  end
end

-- Loads PoB from the current directory (<pob>/src). Returns info, or nil and {code, message}.
function M.boot()
  -- Before PoB runs: its print goes to stderr, io.write too, and nothing reads the protocol stream.
  print = log
  io.output(stderr)
  io.read = function() return nil end

  local okZlib, zlib = pcall(require, "zlib")
  if not okZlib or type(zlib) ~= "table" or not zlib.inflate then
    return nil, { code = "NO_ZLIB", message = "lua-zlib is not installed for LuaJIT (require 'zlib' failed): install it with `apt-get install lua-zlib`" }
  end

  local ok, err = pcall(dofile, "HeadlessWrapper.lua")
  if not ok then
    return nil, { code = "POB_INIT", message = "Path of Building failed to start: " .. M.plain(err) }
  end
  if type(launch) ~= "table" or launch.promptMsg or type(build) ~= "table" then
    local why = type(launch) == "table" and launch.promptMsg or "HeadlessWrapper.lua did not create the build object"
    return nil, { code = "POB_INIT", message = "Path of Building failed to start: " .. M.plain(why) }
  end

  installZlib(zlib)
  GetScriptPath = function() return "." end
  NewFileSearch = newFileSearch
  if type(main) == "table" then
    -- A source checkout runs in dev mode and would autosave every other load to /Builds.
    main.disableDevAutoSave = true
  end
  collectgarbage("setpause", 110)
  return {
    version = launch.versionNumber,
    branch = launch.versionBranch,
    devMode = launch.devMode == true,
    latestTreeVersion = latestTreeVersion,
    lua = jit and jit.version or _VERSION,
  }
end

-- Milliseconds on a monotonic wall clock (LuaJIT FFI), or CPU time where that is unavailable.
local clock = os.clock
do
  local ok, ffi = pcall(require, "ffi")
  if ok and ffi.os ~= "Windows" then
    local defined = pcall(ffi.cdef, "typedef struct { long tv_sec; long tv_nsec; } mcphost_timespec; int clock_gettime(int clk, mcphost_timespec *tp);")
    local ts = defined and ffi.new("mcphost_timespec")
    local monotonic = ffi.os == "OSX" and 6 or 1
    if ts and pcall(ffi.C.clock_gettime, monotonic, ts) then
      clock = function()
        ffi.C.clock_gettime(monotonic, ts)
        return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
      end
    end
  end
end
function M.now()
  return clock() * 1000
end

M.log = log
return M
