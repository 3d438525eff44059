-- Passive tree actions: read it, replace it, edit it along paths, and what-if calculations.
local buildActions = require("mcphost_build")
local stats = require("mcphost_stats")
local json = require("mcphost_json")
local headless = require("mcphost_headless")

local M = {}
local fail, requireBuild = buildActions.fail, buildActions.requireBuild

local TREE_URL = "https://www.pathofexile.com/passive-skill-tree/"

local function sortedIds(set)
  local ids = json.array()
  for id in pairs(set) do ids[#ids + 1] = id end
  table.sort(ids)
  return ids
end

local function allocatedIds(spec)
  local set = {}
  for id, node in pairs(spec.allocNodes) do
    if node.type ~= "ClassStart" and node.type ~= "AscendClassStart" then set[id] = true end
  end
  return set
end

local function idList(value, name)
  if value == nil then return json.array() end
  if type(value) ~= "table" then fail("BAD_PARAMS", name .. " must be a list of node ids") end
  local out = json.array()
  for i, id in ipairs(value) do
    local n = tonumber(id)
    if not n then fail("BAD_PARAMS", name .. "[" .. i .. "] is not a node id") end
    out[#out + 1] = n
  end
  return out
end

-- {masteryId = effectId} with string keys (JSON) as numbers.
local function masteryMap(value)
  local out = {}
  for k, v in pairs(value or {}) do
    local id, effect = tonumber(k), tonumber(v)
    if not id or not effect then fail("BAD_PARAMS", "masteryEffects maps mastery node ids to effect ids") end
    out[id] = effect
  end
  return out
end

local function treeSummary(spec)
  local used, ascUsed, secondaryUsed, sockets = spec:CountAllocNodes()
  return {
    treeVersion = spec.treeVersion,
    classId = spec.curClassId,
    className = spec.curClassName,
    ascendClassId = spec.curAscendClassId,
    ascendClassName = spec.curAscendClassId ~= 0 and spec.curAscendClassName or nil,
    secondaryAscendClassId = spec.curSecondaryAscendClassId or 0,
    points = used,
    ascendancyPoints = ascUsed,
    secondaryAscendancyPoints = secondaryUsed,
    jewelSockets = sockets,
  }
end

function M.get_tree()
  requireBuild()
  local spec = build.spec
  local tree = treeSummary(spec)
  tree.nodes = sortedIds(allocatedIds(spec))
  local masteries = {}
  for id, effect in pairs(spec.masterySelections) do masteries[tostring(id)] = effect end
  tree.masteryEffects = masteries
  local keystones, notables = json.array(), json.array()
  for id, node in pairs(spec.allocNodes) do
    if node.type == "Keystone" then keystones[#keystones + 1] = node.dn end
    if node.type == "Notable" then notables[#notables + 1] = node.dn end
  end
  table.sort(keystones)
  table.sort(notables)
  tree.keystones, tree.notables = keystones, notables
  local jewels = {}
  for nodeId, itemId in pairs(spec.jewels or {}) do
    if itemId and itemId ~= 0 then jewels[tostring(nodeId)] = itemId end
  end
  tree.jewels = jewels
  local ok, url = pcall(spec.EncodeURL, spec, TREE_URL)
  tree.url = ok and url or nil
  return tree
end

local function afterEdit(before, fields, beforeIds)
  local spec = build.spec
  spec:AddUndoState()
  buildActions.recalc()
  local nowIds = allocatedIds(spec)
  local added, removed = {}, {}
  for id in pairs(nowIds) do if not beforeIds[id] then added[id] = true end end
  for id in pairs(beforeIds) do if not nowIds[id] then removed[id] = true end end
  return {
    -- The same shape as get_tree, so a client reads the edited tree the way it reads any tree.
    tree = M.get_tree(),
    allocated = sortedIds(added),
    deallocated = sortedIds(removed),
    changes = stats.changes(build, before, build.calcsTab.mainOutput, fields),
  }
end

function M.set_tree(params)
  requireBuild()
  local spec = build.spec
  local classId, ascendClassId = tonumber(params.classId), tonumber(params.ascendClassId)
  if not classId or not ascendClassId then fail("BAD_PARAMS", "classId and ascendClassId are required numbers") end
  local nodes = idList(params.nodes, "nodes")
  local masteries = masteryMap(params.masteryEffects)
  local treeVersion = params.treeVersion
  if treeVersion ~= nil and not isValueInTable(treeVersionList, treeVersion) then
    fail("BAD_PARAMS", "unknown treeVersion " .. tostring(treeVersion) .. " (known: " .. table.concat(treeVersionList, ", ") .. ")")
  end
  local class = spec.tree.classes[classId]
  if not class then fail("BAD_PARAMS", "unknown classId " .. classId) end
  if ascendClassId ~= 0 and not (class.classes and class.classes[ascendClassId]) then
    fail("BAD_PARAMS", "class " .. tostring(class.name) .. " has no ascendClassId " .. ascendClassId)
  end
  local fields = params.fields or stats.headline
  local before = stats.snapshot(build, build.calcsTab.mainOutput, fields)
  local beforeIds = allocatedIds(spec)
  spec:ImportFromNodeList(classId, ascendClassId, tonumber(params.secondaryAscendClassId) or 0, nodes, spec.hashOverrides or {}, masteries, treeVersion)
  spec = build.spec
  local unknown = json.array()
  for _, id in ipairs(nodes) do
    if not spec.nodes[id] then unknown[#unknown + 1] = id end
  end
  local result = afterEdit(before, fields, beforeIds)
  result.unknownNodes = unknown
  return result
end

function M.update_tree_delta(params)
  requireBuild()
  local spec = build.spec
  local add, remove = idList(params.addNodes, "addNodes"), idList(params.removeNodes, "removeNodes")
  local masteries = masteryMap(params.masteryEffects)
  local fields = params.fields or stats.headline
  local unknown, unreachable, skipped = json.array(), json.array(), json.array()
  -- Check everything first so a bad id changes nothing.
  for _, list in ipairs({ add, remove }) do
    for _, id in ipairs(list) do
      if not spec.nodes[id] then unknown[#unknown + 1] = id end
    end
  end
  for id, effect in pairs(masteries) do
    local node = spec.nodes[id]
    if not node or node.type ~= "Mastery" then
      fail("BAD_PARAMS", "masteryEffects: " .. id .. " is not a mastery node")
    end
    local valid = false
    for _, option in ipairs(node.masteryEffects or {}) do
      if option.effect == effect then valid = true end
    end
    if not valid then fail("BAD_PARAMS", "masteryEffects: " .. effect .. " is not an effect of mastery " .. id .. " (" .. tostring(node.dn) .. ")") end
  end
  if #unknown > 0 then
    fail("UNKNOWN_NODES", "tree not changed: no node with id " .. table.concat(unknown, ", ") .. " in tree " .. spec.treeVersion, { unknownNodes = unknown })
  end
  local before = stats.snapshot(build, build.calcsTab.mainOutput, fields)
  local beforeIds = allocatedIds(spec)
  for _, id in ipairs(remove) do
    local node = spec.nodes[id]
    if node.alloc then spec:DeallocNode(node) else skipped[#skipped + 1] = id end
  end
  for id, effect in pairs(masteries) do
    spec.masterySelections[id] = effect
    local node = spec.nodes[id]
    if node.alloc then spec:BuildAllDependsAndPaths() elseif node.path then spec:AllocNode(node) else unreachable[#unreachable + 1] = id end
  end
  for _, id in ipairs(add) do
    local node = spec.nodes[id]
    if node.alloc then
      skipped[#skipped + 1] = id
    elseif node.type == "Mastery" and not spec.masterySelections[id] then
      fail("BAD_PARAMS", "node " .. id .. " is a mastery: choose its effect with masteryEffects")
    elseif node.path then
      spec:AllocNode(node)
    else
      unreachable[#unreachable + 1] = id
    end
  end
  local result = afterEdit(before, fields, beforeIds)
  result.unreachable, result.unchanged = unreachable, skipped
  return result
end

-- What-if: the misc calculator PoB uses for tree tooltips; the build is not changed.
-- Adding a node also adds its path from the tree; removing one also removes what depends on it,
-- exactly as allocating or deallocating it would.
function M.calc_with(params)
  requireBuild()
  local spec = build.spec
  local add, remove = idList(params.addNodes, "addNodes"), idList(params.removeNodes, "removeNodes")
  local fields = params.fields or stats.headline
  local addSet, removeSet, unknown, unreachable = {}, {}, json.array(), json.array()
  local addIds, removeIds = {}, {}
  for _, id in ipairs(add) do
    local node = spec.nodes[id]
    if not node then unknown[#unknown + 1] = id
    elseif not node.alloc then
      if node.path then
        for _, pathNode in ipairs(node.path) do
          if not pathNode.alloc then addSet[pathNode] = true; addIds[pathNode.id] = true end
        end
      else
        unreachable[#unreachable + 1] = id
      end
    end
  end
  for _, id in ipairs(remove) do
    local node = spec.nodes[id]
    if not node then unknown[#unknown + 1] = id
    elseif node.alloc then
      for _, dep in ipairs(node.depends or { node }) do removeSet[dep] = true; removeIds[dep.id] = true end
    end
  end
  if #unknown > 0 then
    fail("UNKNOWN_NODES", "no node with id " .. table.concat(unknown, ", ") .. " in tree " .. spec.treeVersion, { unknownNodes = unknown })
  end
  local started = headless.now()
  local calcFunc, baseOutput = build.calcsTab:GetMiscCalculator()
  local output = calcFunc({ addNodes = addSet, removeNodes = removeSet }, params.useFullDPS)
  local luaMs = headless.now() - started
  local result = stats.compare(build, baseOutput, output, fields)
  result.nodes = { added = sortedIds(addIds), removed = sortedIds(removeIds), unreachable = unreachable }
  result.luaMs = luaMs
  return result
end

return M
