-- A small pure-Lua stand-in for the `lua-utf8` C module (luautf8), which Path of Building
-- requires but neither Debian nor npm ships. PoB uses reverse/gsub/find/sub for number formatting
-- and match/next in edit controls; positions here count characters, as in luautf8.
-- Patterns are matched byte-wise, which is exact for the ASCII classes PoB uses.
local byte, sub, find, match, gsub = string.byte, string.sub, string.find, string.match, string.gsub
local concat, floor = table.concat, math.floor

local utf8 = {}

utf8.charpattern = "[\0-\x7F\xC2-\xFD][\x80-\xBF]*"

-- Byte offsets where each character starts, and the total byte length + 1 as a sentinel.
local function starts(s)
  local list, i, n = {}, 1, #s
  while i <= n do
    list[#list + 1] = i
    local c = byte(s, i)
    if c < 0x80 then i = i + 1
    elseif c >= 0xF0 then i = i + 4
    elseif c >= 0xE0 then i = i + 3
    elseif c >= 0xC0 then i = i + 2
    else i = i + 1 end
  end
  list[#list + 1] = n + 1
  return list
end

-- Byte offset of character index `i` (negative counts from the end), clamped to the string.
local function byteIndex(list, i)
  local count = #list - 1
  if i < 0 then i = count + i + 1 end
  if i < 1 then i = 1 end
  if i > count + 1 then i = count + 1 end
  return list[i]
end

local function charIndex(list, b)
  for idx = 1, #list do
    if list[idx] >= b then return idx end
  end
  return #list
end

function utf8.len(s)
  return #starts(s) - 1
end

function utf8.reverse(s)
  local list, out = starts(s), {}
  for idx = #list - 1, 1, -1 do
    out[#out + 1] = sub(s, list[idx], list[idx + 1] - 1)
  end
  return concat(out)
end

function utf8.sub(s, i, j)
  local list = starts(s)
  local count = #list - 1
  i = i or 1
  j = j or -1
  if i < 0 then i = count + i + 1 end
  if j < 0 then j = count + j + 1 end
  if i < 1 then i = 1 end
  if j > count then j = count end
  if i > j then return "" end
  return sub(s, list[i], list[j + 1] - 1)
end

local function byteInit(s, init)
  if init == nil then return 1, nil end
  local list = starts(s)
  return byteIndex(list, init), list
end

function utf8.find(s, pattern, init, plain)
  local b, list = byteInit(s, init)
  local first, last = find(s, pattern, b, plain)
  if not first then return nil end
  list = list or starts(s)
  local i = charIndex(list, first)
  local j = charIndex(list, last + 1) - 1
  return i, j, select(3, find(s, pattern, b, plain))
end

function utf8.match(s, pattern, init)
  return match(s, pattern, (byteInit(s, init)))
end

function utf8.gmatch(s, pattern)
  return string.gmatch(s, pattern)
end

function utf8.gsub(s, pattern, repl, n)
  return gsub(s, pattern, repl, n)
end

function utf8.char(...)
  local out = {}
  for k, cp in ipairs({ ... }) do
    if cp < 0x80 then out[k] = string.char(cp)
    elseif cp < 0x800 then out[k] = string.char(0xC0 + floor(cp / 0x40), 0x80 + cp % 0x40)
    elseif cp < 0x10000 then out[k] = string.char(0xE0 + floor(cp / 0x1000), 0x80 + floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
    else out[k] = string.char(0xF0 + floor(cp / 0x40000), 0x80 + floor(cp / 0x1000) % 0x40, 0x80 + floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40) end
  end
  return concat(out)
end

local function decodeAt(s, b)
  local c = byte(s, b)
  if not c then return nil end
  if c < 0x80 then return c end
  if c >= 0xF0 then return (c % 0x08) * 0x40000 + (byte(s, b + 1) % 0x40) * 0x1000 + (byte(s, b + 2) % 0x40) * 0x40 + byte(s, b + 3) % 0x40 end
  if c >= 0xE0 then return (c % 0x10) * 0x1000 + (byte(s, b + 1) % 0x40) * 0x40 + byte(s, b + 2) % 0x40 end
  if c >= 0xC0 then return (c % 0x20) * 0x40 + byte(s, b + 1) % 0x40 end
  return c
end

function utf8.codepoint(s, i, j)
  local list = starts(s)
  i = i or 1
  j = j or i
  local out = {}
  for idx = i, j do
    local b = list[idx]
    if b and b <= #s then out[#out + 1] = decodeAt(s, b) end
  end
  return unpack(out)
end

-- luautf8's next(s, bytePos, step): the byte offset of the character `step` characters away from
-- the one at bytePos (step defaults to 1), and its code point; nil past either end.
function utf8.next(s, pos, step)
  step = step or 1
  local list = starts(s)
  local idx
  if pos == nil or pos < 1 then
    idx = step > 0 and step or nil
  else
    idx = charIndex(list, pos) + step
  end
  if not idx or idx < 1 or idx > #list - 1 then return nil end
  return list[idx], decodeAt(s, list[idx])
end

function utf8.offset(s, n, i)
  local list = starts(s)
  local base = i and charIndex(list, i) or (n >= 0 and 1 or #list)
  local idx = base + (n > 0 and n - 1 or n)
  return list[idx]
end

return utf8
