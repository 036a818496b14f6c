-- bench_10k.lua: 10,000 wanderers spread over the window, for
-- `steer-viewer tests/viewer/bench_10k.lua --headless --bench --frames 120`
-- (the README's drawing figure).
local steer = require "steer"

return {
  roles = { walker = steer.wander{ wander_offset = 2, wander_radius = 1, wander_rate = 0.3 } },
  setup = function(world)
    for i = 0, 9999 do
      world:spawn{ x = (i % 125) * 1.0 - 62, y = (i // 125) * 0.9 - 36, orientation = i * 0.37, role = "walker",
                   max_speed = 1, radius = 0.3, key = i + 1 }
    end
  end,
}
