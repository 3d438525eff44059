-- Reading PoB's computed output: every numeric stat, or named fields. Names are PoB's own
-- (`Life`, `TotalEHP`, `CombinedDPS`), PlayerStat names built from a stat and a child stat
-- (`MainHandAccuracy`), or dotted paths into nested output tables (`Minion.Life`).
local M = {}

-- Stats a what-if or an edit reports when the caller names none.
M.headline = {
  "Life", "EnergyShield", "Mana", "Ward", "TotalEHP", "Armour", "Evasion",
  "FireResist", "ColdResist", "LightningResist", "ChaosResist", "BlockChance", "SpellBlockChance",
  "SpellSuppressionChance", "TotalDPS", "CombinedDPS", "FullDPS", "TotalDot", "AverageHit", "Speed",
  "CritChance", "HitChance", "Str", "Dex", "Int",
}

-- The same test PoB's sidebar applies to a display stat's flag/notFlag.
local function matchFlags(required, excluded, flags)
  if type(required) == "string" then required = { required } end
  for _, flag in ipairs(required or {}) do
    if not flags[flag] then return false end
  end
  if type(excluded) == "string" then excluded = { excluded } end
  for _, flag in ipairs(excluded or {}) do
    if flags[flag] then return false end
  end
  return true
end

local function finite(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
end

local function scalars(output)
  local out = {}
  for k, v in pairs(output or {}) do
    if type(k) == "string" and finite(v) then out[k] = v end
  end
  return out
end
M.scalars = scalars

-- PlayerStat names that combine a stat and a child stat, from PoB's display list.
local function compositeIndex(build)
  local index = {}
  for _, list in ipairs({ build.displayStats or {}, build.minionDisplayStats or {} }) do
    for _, d in ipairs(list) do
      if d.stat and d.childStat then index[d.stat .. d.childStat] = { d.stat, d.childStat } end
    end
  end
  return index
end

local function resolve(output, name, composite)
  local v = output[name]
  if v ~= nil and type(v) ~= "table" then return v end
  local pair = composite[name]
  if pair and type(output[pair[1]]) == "table" then return output[pair[1]][pair[2]] end
  if name:find(".", 1, true) then
    local cur = output
    for part in name:gmatch("[^%.]+") do
      if type(cur) ~= "table" then return nil end
      cur = cur[part]
    end
    if type(cur) ~= "table" then return cur end
  end
  return nil
end

-- Picks `fields` out of `output`: { values, missing }. Non-finite numbers count as missing.
function M.pick(build, output, fields)
  local composite = compositeIndex(build)
  local values, missing = {}, {}
  for _, name in ipairs(fields) do
    local v = resolve(output, name, composite)
    if finite(v) or type(v) == "boolean" or type(v) == "string" then
      values[name] = v
    else
      missing[#missing + 1] = name
    end
  end
  return values, missing
end

-- before/after/delta of the named numeric fields.
function M.compare(build, before, after, fields)
  local b = M.pick(build, before, fields)
  local a = M.pick(build, after, fields)
  local delta = {}
  for _, name in ipairs(fields) do
    if type(a[name]) == "number" and type(b[name]) == "number" then delta[name] = a[name] - b[name] end
  end
  return { before = b, after = a, delta = delta }
end

-- The named fields' values, taken before an edit changes the live output.
function M.snapshot(build, output, fields)
  return (M.pick(build, output, fields))
end

-- Differences between a snapshot and the current output (only fields that changed).
function M.changes(build, snapshot, output, fields)
  local now = M.pick(build, output, fields)
  local changed = {}
  for _, name in ipairs(fields) do
    local b, a = snapshot[name], now[name]
    if type(a) == "number" and type(b) == "number" and a ~= b then
      changed[name] = { before = b, after = a, delta = a - b }
    end
  end
  return changed
end

-- The build's own displayed stats (PoB's sidebar), in order, with their values.
function M.display(build, output)
  local list = {}
  local composite = compositeIndex(build)
  local flags = build.calcsTab.mainEnv and build.calcsTab.mainEnv.player.mainSkill.skillFlags or {}
  for _, d in ipairs(build.displayStats or {}) do
    if d.stat and d.stat ~= "SkillDPS" and matchFlags(d.flag, d.notFlag, flags) then
      local name = d.stat .. (d.childStat or "")
      local v = resolve(output, name, composite)
      if finite(v) then list[#list + 1] = { stat = name, label = d.label, value = v } end
    end
  end
  return list
end

return M
