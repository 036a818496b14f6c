-- align_match.lua: the basic family's other half: followers match a
-- leader's velocity (velocity_match) and orientation (align) without
-- going to it. The leader circles on a path.
local steer = require "steer"

local leader
local square = steer.path{ { -15, -10 }, { 15, -10 }, { 15, 10 }, { -15, 10 }, loop = true }
local match = steer.velocity_match{}
local align = steer.align{}

return {
  roles = {
    leader = function()
      return steer.blend{
        { steer.follow_path{ path = square }, weight = 1 },
        { steer.look_where_you_are_going{}, weight = 1 },
      }
    end,
    follower = steer.blend{ { match, weight = 1 }, { align, weight = 1 } },
  },
  setup = function(world)
    leader = world:spawn{ x = -15, y = -10, role = "leader", max_speed = 4, radius = 0.8 }
    for i = 0, 8 do world:spawn{ x = -8 + (i % 3) * 8, y = -4 + (i // 3) * 4, role = "follower", max_speed = 4 } end
    match.target, align.target = leader, leader
  end,
  on_reload = function() match.target, align.target = leader, leader end,
}
