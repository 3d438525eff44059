-- JSON for the mcphost PoB server: one value per line in, one per line out.
-- Tables with keys 1..n (and nothing else) are arrays; json.array(t) marks an empty table as one.
-- NaN and infinities have no JSON form and are written as null.
local byte, char, find, format, sub, gsub = string.byte, string.char, string.find, string.format, string.sub, string.gsub
local concat, floor, huge, tonumber, type, pairs, next = table.concat, math.floor, math.huge, tonumber, type, pairs, next

local json = {}
local arrayMark = setmetatable({}, { __mode = "k" })

function json.array(t)
  t = t or {}
  arrayMark[t] = true
  return t
end

local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function escapeChar(c)
  return escapes[c] or format("\\u%04x", byte(c))
end

local function encodeString(s)
  return '"' .. gsub(s, '[%c"\\]', escapeChar) .. '"'
end

-- 17 significant digits read back as the same double (the reader re-serialises for people).
local function encodeNumber(n)
  if n ~= n or n == huge or n == -huge then return "null" end
  if floor(n) == n and n > -1e15 and n < 1e15 then return format("%d", n) end
  return format("%.17g", n)
end

local function isArray(t)
  if arrayMark[t] then return true end
  local n = #t
  if n == 0 then return false end
  local count = 0
  for _ in pairs(t) do count = count + 1 end
  return count == n
end

local encodeValue

local function encodeTable(t, out, depth)
  if depth > 64 then error("json: nesting deeper than 64 levels (a cycle?)") end
  if isArray(t) then
    out[#out + 1] = "["
    for i = 1, #t do
      if i > 1 then out[#out + 1] = "," end
      encodeValue(t[i], out, depth + 1)
    end
    out[#out + 1] = "]"
    return
  end
  out[#out + 1] = "{"
  local first = true
  for k, v in pairs(t) do
    local tk, tv = type(k), type(v)
    if (tk == "string" or tk == "number") and tv ~= "function" and tv ~= "userdata" and tv ~= "thread" then
      if not first then out[#out + 1] = "," end
      first = false
      out[#out + 1] = encodeString(tk == "string" and k or encodeNumber(k))
      out[#out + 1] = ":"
      encodeValue(v, out, depth + 1)
    end
  end
  out[#out + 1] = "}"
end

encodeValue = function(v, out, depth)
  local t = type(v)
  if t == "string" then
    out[#out + 1] = encodeString(v)
  elseif t == "number" then
    out[#out + 1] = encodeNumber(v)
  elseif t == "boolean" then
    out[#out + 1] = v and "true" or "false"
  elseif t == "table" then
    encodeTable(v, out, depth)
  else
    out[#out + 1] = "null"
  end
end

function json.encode(v)
  local out = {}
  encodeValue(v, out, 0)
  return concat(out)
end

-- Decoding ------------------------------------------------------------------------------------

local function decodeError(s, pos, what)
  error({ json = true, message = format("invalid JSON at character %d: %s", pos, what) }, 0)
end

local function skip(s, pos)
  return find(s, "[^ \t\r\n]", pos) or #s + 1
end

local function utf8Encode(cp)
  if cp < 0x80 then return char(cp) end
  if cp < 0x800 then return char(0xC0 + floor(cp / 0x40), 0x80 + cp % 0x40) end
  if cp < 0x10000 then
    return char(0xE0 + floor(cp / 0x1000), 0x80 + floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
  end
  return char(0xF0 + floor(cp / 0x40000), 0x80 + floor(cp / 0x1000) % 0x40, 0x80 + floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
end

local simpleEscapes = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", ['"'] = '"', ["\\"] = "\\", ["/"] = "/" }

local function decodeString(s, pos)
  local parts, start = {}, pos + 1
  while true do
    local at = find(s, '["\\]', start)
    if not at then decodeError(s, pos, "unterminated string") end
    parts[#parts + 1] = sub(s, start, at - 1)
    if byte(s, at) == 34 then return concat(parts), at + 1 end
    local e = sub(s, at + 1, at + 1)
    if e == "u" then
      local hex = sub(s, at + 2, at + 5)
      local cp = tonumber(hex, 16)
      if not cp or #hex < 4 then decodeError(s, at, "bad \\u escape") end
      local nextAt = at + 6
      if cp >= 0xD800 and cp <= 0xDBFF and sub(s, nextAt, nextAt + 1) == "\\u" then
        local low = tonumber(sub(s, nextAt + 2, nextAt + 5), 16)
        if low and low >= 0xDC00 and low <= 0xDFFF then
          cp = 0x10000 + (cp - 0xD800) * 0x400 + (low - 0xDC00)
          nextAt = nextAt + 6
        end
      end
      parts[#parts + 1] = utf8Encode(cp)
      start = nextAt
    elseif simpleEscapes[e] then
      parts[#parts + 1] = simpleEscapes[e]
      start = at + 2
    else
      decodeError(s, at, "bad escape")
    end
  end
end

local decodeValue

local function decodeArray(s, pos)
  local out, n = json.array({}), 0
  pos = skip(s, pos + 1)
  if byte(s, pos) == 93 then return out, pos + 1 end
  while true do
    local v
    v, pos = decodeValue(s, pos)
    n = n + 1
    out[n] = v
    pos = skip(s, pos)
    local c = byte(s, pos)
    if c == 93 then return out, pos + 1 end
    if c ~= 44 then decodeError(s, pos, "expected ',' or ']'") end
    pos = skip(s, pos + 1)
  end
end

local function decodeObject(s, pos)
  local out = {}
  pos = skip(s, pos + 1)
  if byte(s, pos) == 125 then return out, pos + 1 end
  while true do
    if byte(s, pos) ~= 34 then decodeError(s, pos, "expected a string key") end
    local k, v
    k, pos = decodeString(s, pos)
    pos = skip(s, pos)
    if byte(s, pos) ~= 58 then decodeError(s, pos, "expected ':'") end
    v, pos = decodeValue(s, skip(s, pos + 1))
    out[k] = v
    pos = skip(s, pos)
    local c = byte(s, pos)
    if c == 125 then return out, pos + 1 end
    if c ~= 44 then decodeError(s, pos, "expected ',' or '}'") end
    pos = skip(s, pos + 1)
  end
end

local literals = { t = { "true", true }, f = { "false", false }, n = { "null", nil } }

decodeValue = function(s, pos)
  pos = skip(s, pos)
  local c = sub(s, pos, pos)
  if c == "{" then return decodeObject(s, pos) end
  if c == "[" then return decodeArray(s, pos) end
  if c == '"' then return decodeString(s, pos) end
  local lit = literals[c]
  if lit then
    if sub(s, pos, pos + #lit[1] - 1) ~= lit[1] then decodeError(s, pos, "unknown literal") end
    return lit[2], pos + #lit[1]
  end
  local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
  if num and num ~= "" and num ~= "-" then
    local value = tonumber(num)
    if value == nil then decodeError(s, pos, "bad number") end
    return value, pos + #num
  end
  decodeError(s, pos, c == "" and "unexpected end" or ("unexpected '" .. c .. "'"))
end

-- Returns the value, or nil and a message.
function json.decode(s)
  local ok, value, pos = pcall(decodeValue, s, 1)
  if not ok then
    if type(value) == "table" and value.json then return nil, value.message end
    return nil, tostring(value)
  end
  pos = skip(s, pos)
  if pos <= #s then return nil, format("invalid JSON at character %d: trailing text", pos) end
  return value
end

return json
