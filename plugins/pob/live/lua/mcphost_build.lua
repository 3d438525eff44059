-- Actions on the build as a whole: load, export, describe, level, configuration.
local headless = require("mcphost_headless")
local stats = require("mcphost_stats")
local json = require("mcphost_json")

local M = {}

local function fail(code, message, data)
  error({ code = code, message = message, data = data }, 0)
end
M.fail = fail

local state = { loaded = false, loads = 0 }
M.state = state

function M.requireBuild()
  if not state.loaded then fail("NO_BUILD", "no build is loaded") end
  return build
end

-- PoB recalculates on the next frame when buildFlag is set; headless there is no frame loop.
function M.recalc()
  wipeGlobalCache()
  build.outputRevision = build.outputRevision + 1
  build.buildFlag = false
  build.calcsTab:BuildOutput()
  build:RefreshStatList()
end

-- What went wrong during a load, read from PoB's UI state (it reports errors only there).
local function popupText(popup)
  local texts = {}
  for _, control in pairs(popup.controls or {}) do
    local label = control._className ~= "ButtonControl" and control.label or nil
    if type(label) == "function" then
      local ok, value = pcall(label, control)
      label = ok and value or nil
    end
    if type(label) == "string" and label:match("%S") then texts[#texts + 1] = headless.plain(label) end
  end
  table.sort(texts)
  local title = popup.title and headless.plain(popup.title) or nil
  return (title and title .. ": " or "") .. table.concat(texts, " ")
end

local function loadFailure(previousCalcs)
  if launch.promptMsg then
    local text = headless.plain(launch.promptMsg):gsub("\n+Press Enter/Escape.*$", "")
    -- The prompt reads "Error:\n\n<message>\nv<version>"; keep the message.
    text = text:gsub("^%s*Error:%s*", ""):gsub("\n+v%d[^\n]*$", "")
    return (text:gsub("%s+", " "))
  end
  if main.popups and main.popups[1] then return popupText(main.popups[1]) end
  if main.mode ~= "BUILD" then return "Path of Building closed the build (mode " .. tostring(main.mode) .. ")" end
  if build.calcsTab == nil or build.calcsTab == previousCalcs then return "Path of Building did not load the build" end
  return nil
end

-- After a failed load PoB keeps a half-built state; start from an empty build so the next load works.
local function resetAfterFailure()
  launch.promptMsg = nil
  if main.popups then
    for i = #main.popups, 1, -1 do main.popups[i] = nil end
  end
  build.treeTab = nil
  pcall(newBuild)
  launch.promptMsg = nil
  if main.popups then
    for i = #main.popups, 1, -1 do main.popups[i] = nil end
  end
  state.loaded = false
end

function M.load_build_xml(params)
  if type(params.xml) ~= "string" or params.xml == "" then fail("BAD_PARAMS", "xml must be a non-empty string") end
  local previousCalcs = state.loaded and build.calcsTab or nil
  state.loaded = false
  launch.promptMsg = nil
  -- PoB keys its skill cache by skill, not by build: without this a build loaded after another
  -- version of itself reuses the other's cached results.
  wipeGlobalCache()
  local ok, err = pcall(loadBuildFromXML, params.xml, params.name or "mcphost")
  local why = (not ok and headless.plain(err)) or loadFailure(previousCalcs)
  if why then
    resetAfterFailure()
    fail("LOAD_FAILED", "Path of Building could not load the build: " .. why)
  end
  state.loaded = true
  state.loads = state.loads + 1
  return M.info()
end

function M.export_build_xml()
  M.requireBuild()
  local xml = build:SaveDB("mcphost")
  if type(xml) ~= "string" then fail("EXPORT_FAILED", "Path of Building could not compose the build XML") end
  return { xml = xml }
end

local function gemList(group)
  local gems = json.array()
  for _, gem in ipairs(group.gemList or {}) do
    gems[#gems + 1] = {
      name = gem.nameSpec ~= "" and gem.nameSpec or (gem.gemData and gem.gemData.name) or gem.skillId,
      skillId = gem.skillId,
      level = gem.level,
      quality = gem.quality,
      enabled = gem.enabled ~= false,
      support = gem.gemData and gem.gemData.grantedEffect and gem.gemData.grantedEffect.support or false,
    }
  end
  return gems
end

local function skills()
  local list = json.array()
  for index, group in ipairs(build.skillsTab.socketGroupList or {}) do
    list[#list + 1] = {
      index = index,
      label = group.label ~= "" and group.label or nil,
      slot = group.slot,
      source = group.source,
      enabled = group.enabled ~= false,
      main = index == build.mainSocketGroup,
      includeInFullDPS = group.includeInFullDPS == true,
      gems = gemList(group),
    }
  end
  return list
end

local function items()
  local list = json.array()
  local tab = build.itemsTab
  for _, slot in ipairs(tab.orderedSlots or {}) do
    local item = slot.selItemId and slot.selItemId ~= 0 and tab.items[slot.selItemId]
    if item and not slot.inactive then
      list[#list + 1] = { slot = slot.slotName, name = item.name, base = item.baseName, rarity = item.rarity, id = slot.selItemId }
    end
  end
  return list
end

local function mainSkillName()
  local env = build.calcsTab.mainEnv
  local skill = env and env.player and env.player.mainSkill
  local effect = skill and skill.activeEffect and skill.activeEffect.grantedEffect
  return effect and effect.name or nil
end

function M.info()
  M.requireBuild()
  local spec = build.spec
  local used, ascUsed = spec:CountAllocNodes()
  local input = build.configTab.input
  return {
    name = build.buildName,
    className = spec.curClassName,
    ascendClassName = spec.curAscendClassId ~= 0 and spec.curAscendClassName or nil,
    level = build.characterLevel,
    levelAutoMode = build.characterLevelAutoMode == true,
    treeVersion = spec.treeVersion,
    targetVersion = build.targetVersion,
    bandit = input.bandit or build.bandit,
    pantheonMajorGod = input.pantheonMajorGod or build.pantheonMajorGod,
    pantheonMinorGod = input.pantheonMinorGod or build.pantheonMinorGod,
    mainSocketGroup = build.mainSocketGroup,
    mainSkill = mainSkillName(),
    passivePoints = used,
    ascendancyPoints = ascUsed,
    skills = skills(),
    items = items(),
    loads = state.loads,
  }
end

function M.get_build_info()
  return M.info()
end

function M.set_level(params)
  M.requireBuild()
  local level = tonumber(params.level)
  if not level or level ~= math.floor(level) or level < 1 or level > 100 then
    fail("BAD_PARAMS", "level must be a whole number from 1 to 100")
  end
  local fields = params.fields or stats.headline
  local before = stats.snapshot(build, build.calcsTab.mainOutput, fields)
  build.characterLevel = level
  build.characterLevelAutoMode = false
  if build.controls and build.controls.characterLevel then build.controls.characterLevel:SetText(tostring(level)) end
  build.configTab:BuildModList()
  M.recalc()
  return { level = build.characterLevel, changes = stats.changes(build, before, build.calcsTab.mainOutput, fields) }
end

-- Configuration ---------------------------------------------------------------------------------

local catalogue
local function options()
  if not catalogue then
    catalogue = {}
    for _, opt in ipairs(LoadModule("Modules/ConfigOptions")) do
      if opt.var then catalogue[opt.var] = opt end
    end
  end
  return catalogue
end

local function copyScalars(t)
  local out = {}
  for k, v in pairs(t or {}) do
    local tv = type(v)
    if type(k) == "string" and (tv == "number" or tv == "string" or tv == "boolean") then out[k] = v end
  end
  return out
end

function M.get_config()
  M.requireBuild()
  local tab = build.configTab
  return { activeConfigSet = tab.activeConfigSetId, input = copyScalars(tab.input), placeholder = copyScalars(tab.placeholder) }
end

local numberTypes = { count = true, integer = true, countAllowZero = true, float = true }

-- Checks one value against the option's type; returns the value PoB stores, or nil and why.
local function checkValue(opt, value)
  if value == nil then return nil end
  if opt.type == "check" then
    if type(value) ~= "boolean" then return nil, "expects true or false" end
  elseif numberTypes[opt.type] then
    if type(value) ~= "number" then return nil, "expects a number" end
  elseif opt.type == "list" then
    local labels = {}
    for _, entry in ipairs(opt.list or {}) do
      if entry.val == value then return value end
      labels[#labels + 1] = tostring(entry.val)
    end
    return nil, "expects one of " .. table.concat(labels, ", ")
  elseif type(value) ~= "string" then
    return nil, "expects text"
  end
  return value
end

-- Sets config inputs (`input`) and clears others (`clear`, a list of names); every name and
-- value is checked before any is applied.
function M.set_config(params)
  M.requireBuild()
  local input, clear = params.input or {}, params.clear or {}
  if type(input) ~= "table" or type(clear) ~= "table" then fail("BAD_PARAMS", "input must be an object of option = value, clear a list of option names") end
  local known, problems = options(), {}
  for var, value in pairs(input) do
    local opt = known[var]
    if not opt then
      problems[#problems + 1] = var .. ": unknown config option"
    else
      local checked, why = checkValue(opt, value)
      if checked == nil then problems[#problems + 1] = var .. ": " .. why end
    end
  end
  for _, var in ipairs(clear) do
    if not known[var] then problems[#problems + 1] = var .. ": unknown config option" end
  end
  if #problems > 0 then
    table.sort(problems)
    fail("BAD_CONFIG", "config not changed: " .. table.concat(problems, "; "), { problems = problems })
  end
  local fields = params.fields or stats.headline
  local before = stats.snapshot(build, build.calcsTab.mainOutput, fields)
  local tab = build.configTab
  for _, var in ipairs(clear) do tab.input[var] = nil end
  for var, value in pairs(input) do tab.input[var] = value end
  tab:UpdateControls()
  tab:BuildModList()
  M.recalc()
  return { input = copyScalars(tab.input), changes = stats.changes(build, before, build.calcsTab.mainOutput, fields) }
end

return M
