-- smoke.lua <tree> <version> <annotations>: the module LuaRocks installed
-- into <tree> loads from there and steers; its annotations came with it.
local tree, version, meta = arg[1], arg[2], arg[3]

local found = assert(package.searchpath("steer", package.cpath))
assert(found == tree .. "/lib/lua/5.4/steer.so", "steer found at " .. found .. ", not in the rock tree")
local steer = require "steer"
assert(steer.version == version, "steer.version " .. tostring(steer.version) .. ", expected " .. version)

-- seek a point for a second: the agent moves towards it along +x
local world = steer.world { seed = 1 }
local agent = world:spawn { x = 0, y = 0, steering = steer.seek { target = { 10, 0 } } }
for _ = 1, 60 do world:step(1 / 60) end
assert(agent.x > 1 and agent.y == 0, string.format("agent at %g, %g", agent.x, agent.y))

local first = assert(io.open(meta)):read("l")
assert(first == "---@meta steer", meta .. " does not start with ---@meta steer")
print(string.format("rock: steer %s from %s; agent at x = %.3f; annotations %s", steer.version, found, agent.x, meta))
