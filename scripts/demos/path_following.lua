-- path_following.lua: a winding path followed plainly (blue) and
-- predictively (predict_time = 0.5 s) by the others: the predictive ones cut
-- corners less late. Trace the first of each (agent.trace) to see targets.
local steer = require "steer"

local path = steer.path{ { -30, -15 }, { -10, 15 }, { 0, -10 }, { 10, 15 }, { 30, -15 }, { 0, -20 }, loop = true }

return {
  roles = {
    plain = steer.follow_path{ path = path, path_offset = 2 },
    predictive = steer.follow_path{ path = path, path_offset = 2, predict_time = 0.5 },
  },
  setup = function(world)
    for i = 0, 4 do
      local p = world:spawn{ x = -30 + i, y = -15 - i, role = "plain", max_speed = 6, face_velocity = true }
      local q = world:spawn{ x = 30 - i, y = -15 - i, role = "predictive", max_speed = 6, face_velocity = true }
      if i == 0 then p.trace, q.trace = true, true end
    end
  end,
}
