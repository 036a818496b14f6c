-- main.lua: a LÖVE 11 game steered by steer (built for LuaJIT: -DSTEER_LUA=luajit,
-- steer.so beside this file; docs/love.md). A flock pursues the mouse (a
-- scripted square while the mouse is still), avoiding pillars; eight boids
-- also run think.lua, a Lua behaviour reloaded whenever the file changes.
-- D: the debug layers (world:draw, the traced boid's tree). Space: pause.
-- `love . --test <dir>`: 600 scripted frames, then <dir>/result.txt (the world
-- hash, the agents' screen positions checked in a screenshot) and shot.png
-- (--debug: with the debug layers on).
local steer = require "steer"
local scene = require "scene"

local SCALE = 16 -- pixels per metre; the origin at the window's centre, y up
local game = { debug = false, paused = false, message = nil, test = nil }

local function to_screen(x, y)
  return love.graphics.getWidth() / 2 + x * SCALE, love.graphics.getHeight() / 2 - y * SCALE
end

local function to_world(sx, sy)
  return (sx - love.graphics.getWidth() / 2) / SCALE, (love.graphics.getHeight() / 2 - sy) / SCALE
end

-- think.lua, (re)loaded with love.filesystem: a broken file keeps the old one
local function load_think()
  local info = love.filesystem.getInfo("think.lua")
  if not info or info.modtime == game.think_time then return end
  game.think_time = info.modtime
  local ok, chunk = pcall(love.filesystem.load, "think.lua")
  local fn = ok and chunk and select(2, pcall(chunk))
  if type(fn) == "function" then
    if game.scene then game.scene.think = fn end
    game.think, game.message = fn, game.scene and "think.lua reloaded" or nil
  else
    game.message = "think.lua not reloaded: " .. tostring(ok and fn or chunk)
  end
end

function love.load(args)
  for i = 1, #args do
    if args[i] == "--test" then game.test = { dir = args[i + 1] or ".", frames = 600 } end
    if args[i] == "--debug" then game.debug = true end
  end
  load_think()
  game.scene = scene.new(steer, game.think)
  game.mouse_still = 0
  love.graphics.setBackgroundColor(0.08, 0.09, 0.11)
end

function love.update(dt)
  if game.paused then return end
  game.reload_timer = (game.reload_timer or 0) + dt
  if game.reload_timer > 0.5 and not game.test then game.reload_timer = 0; load_think() end
  game.mouse_still = game.mouse_still + dt
  if game.test or game.mouse_still > 3 then
    game.scene:update() -- the scripted cursor, a fixed 1/60 s step
  else
    game.scene:update(to_world(love.mouse.getPosition()))
  end
  if game.test and game.scene.frame >= game.test.frames then game.test.done = true end
end

function love.mousemoved() game.mouse_still = 0 end

function love.keypressed(key)
  if key == "d" then game.debug = not game.debug end
  if key == "space" then game.paused = not game.paused end
  if key == "escape" then love.event.quit() end
end

-- the debug layers: what world:draw reports (the game draws agents and pillars itself)
local function line(x1, y1, x2, y2, r, g, b, a)
  love.graphics.setColor(r, g, b, a)
  local ax, ay = to_screen(x1, y1)
  local bx, by = to_screen(x2, y2)
  love.graphics.line(ax, ay, bx, by)
end
local layers = {
  flags = { "paths", "velocity", "steering", "tree", "rays", "marks" },
  segment = line,
  arrow = function(x, y, dx, dy, r, g, b, a) line(x, y, x + dx, y + dy, r, g, b, a) end,
  circle = function(x, y, radius, r, g, b, a)
    love.graphics.setColor(r, g, b, a)
    local sx, sy = to_screen(x, y)
    love.graphics.circle("line", sx, sy, radius * SCALE)
  end,
}

-- the traced boid's tree (agent:trace_tree), one line per node
local function tree_lines(node, indent, out)
  local o = node.output
  out[#out + 1] = string.format("%s%s x%.1f %s%s", indent, node.type, node.weight,
    o and string.format("(%.1f, %.1f)", o[1], o[2]) or "(none)",
    node.winner_linear and ("  winner " .. node.winner_linear) or "")
  for _, child in ipairs(node.children) do tree_lines(child, indent .. "  ", out) end
  return out
end

local function draw_debug(s)
  s.world:draw(layers)
  local tree = s.traced:trace_tree()
  if tree then
    love.graphics.setColor(1, 1, 1)
    love.graphics.print(table.concat(tree_lines(tree, "", {}), "\n"), 8, 28)
  end
end

function love.draw()
  local s = game.scene
  love.graphics.setColor(0.35, 0.38, 0.45)
  for px = -24, 24, 16 do
    for py = -16, 16, 16 do
      local sx, sy = to_screen(px, py)
      love.graphics.circle("fill", sx, sy, 1.5 * SCALE)
    end
  end
  love.graphics.setColor(1, 0.3, 0.3)
  local cx, cy = to_screen(s.cursor.x, s.cursor.y)
  love.graphics.circle("line", cx, cy, 0.5 * SCALE)
  for agent in s.world:agents() do
    local sx, sy = to_screen(agent.x, agent.y)
    if agent ~= s.cursor then
      local hx, hy = agent:heading()
      love.graphics.setColor(agent.steering == s.thinker and { 0.4, 0.9, 1 } or { 0.55, 0.95, 0.45 })
      love.graphics.circle("fill", sx, sy, 0.5 * SCALE)
      love.graphics.line(sx, sy, sx + hx * SCALE, sy - hy * SCALE)
    end
  end
  if game.debug then draw_debug(s) end
  love.graphics.setColor(1, 1, 1)
  love.graphics.print(string.format("steer %s in %s  frame %d  agents %d  [D] debug %s%s",
    steer.version, jit and jit.version or _VERSION, s.frame, s.world:count(), game.debug and "on" or "off",
    game.message and ("  " .. game.message) or ""), 8, 8)
  if game.test and game.test.done and not game.test.shot then
    game.test.shot = true
    love.graphics.captureScreenshot(function(image) game.check(image) end)
  end
end

-- The test's checks: every boid's centre pixel has a boid colour, the corner
-- far from the scene is background; the hash and the result go to <dir>.
function game.check(image)
  local s, bad, boids = game.scene, 0, 0
  for agent in s.world:agents() do
    if agent ~= s.cursor then
      boids = boids + 1
      local sx, sy = to_screen(agent.x, agent.y)
      local r, g = image:getPixel(math.floor(sx), math.floor(sy))
      if not (g > 0.8 and r < 0.7) then bad = bad + 1 end
    end
  end
  local br, bg, bb = image:getPixel(image:getWidth() - 5, image:getHeight() - 5)
  local background = br < 0.15 and bg < 0.15 and bb < 0.15
  local dir = game.test.dir
  image:encode("png", "shot.png")
  local out = assert(io.open(dir .. "/result.txt", "w"))
  out:write(string.format("hash %s\nframes %d\nboids %d\noff_colour %d\nbackground %s\nlua %s\nshot %s\n",
    s.world:hash("hex"), s.frame, boids, bad, tostring(background), jit and jit.version or _VERSION,
    love.filesystem.getSaveDirectory() .. "/shot.png"))
  out:close()
  love.event.quit()
end
