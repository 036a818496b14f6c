-- think.lua: the game's Lua behaviour, hot-reloaded when the file changes
-- (edit it while the game runs). fn(agent, dt, cursor) -> lx, ly: circle
-- the cursor at 6 m, counter-clockwise. Arithmetic only (the same bits in
-- every Lua).
return function(agent, _dt, cursor)
  local dx, dy = agent.x - cursor.x, agent.y - cursor.y
  local d = math.sqrt(dx * dx + dy * dy)
  if d < 1e-6 then return 0, 0 end
  local pull = (d - 6) / d -- towards the ring
  return -dy / d * 4 - dx * pull, dx / d * 4 - dy * pull
end
