-- A player the game moves itself (issue 24): set_position is a teleport and
-- leaves the velocity alone, so pursue cannot predict a player moved only by
-- set_position; giving it the velocity of its motion (docs/lua-api.md, "A
-- player you move yourself") lets pursue lead it.
local steer = require "steer"

local DT = 1 / 60

-- The player runs along y = 10 at 3 m/s, moved by the game every frame; a
-- hound at the origin pursues it. Returns the time the hound took to come
-- within 1 m and its steering at the first frame.
local function chase(with_velocity)
  local world = steer.world{ seed = 1 }
  local player = world:spawn{ x = -10, y = 10, max_speed = 10 }
  local hound = world:spawn{ x = 0, y = 0, max_speed = 4, max_acceleration = 10,
                             steering = steer.pursue{ target = player, max_prediction = 2 } }
  local caught, first = math.huge, nil
  local px, py = player:position()
  for frame = 1, 300 do
    local x, y = px + 3 * DT, py
    player:set_position(x, y)
    if with_velocity then player:set_velocity((x - px) / DT, (y - py) / DT) end
    px, py = x, y
    if frame == 1 then first = { hound.steering:get_steering(hound) } end
    world:step(DT)
    if math.sqrt((hound.x - player.x) ^ 2 + (hound.y - player.y) ^ 2) < 1 then caught = math.min(caught, frame * DT) end
  end
  return caught, first, player
end

describe("a player moved by set_position", function()
  it("has zero velocity unless the game gives it one", function()
    local _, _, player = chase(false)
    assert.are.equal(0, player.vx)
    assert.are.equal(0, player.vy)
    local _, _, moving = chase(true)
    assert.is_true(math.abs(moving.vx - 3) < 1e-3 and moving.vy == 0)
  end)

  it("is led by pursue once its velocity is set", function()
    local caught_still, still = chase(false)
    local caught_moving, moving = chase(true)
    -- without the velocity the hound seeks where the player is: (-10 + 0.05, 10)
    assert.is_true(still[1] < 0)
    -- with it, where the player will be 2 s on: (-4 + 0.05, 10), more to the right
    assert.is_true(moving[1] / moving[2] > still[1] / still[2] + 0.5)
    -- and it catches the player sooner: interception instead of a tail chase
    assert.is_true(caught_moving < caught_still - 0.5,
      ("within 1 m after %.2f s with the velocity, %.2f s without"):format(caught_moving, caught_still))
  end)
end)
