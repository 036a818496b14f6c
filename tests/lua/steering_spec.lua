-- get_steering numbers: the hand computations of the engine's C tests
-- (tests/c/test_behaviours.c, test_group.c), through the Lua API. Limits:
-- max_speed 5, max_acceleration 10, max_rotation pi, max_angular_acceleration 100.
local steer = require "steer"
local support = require "support"
local spawn = support.spawn
local TOL = 1e-4
local PI = math.pi

local function steering(b, agent)
  local lx, ly, angular = b:get_steering(agent)
  return { lx, ly, angular }
end
local function same(expected, got, tol)
  assert.are.equal(#expected, #got, "values")
  for i = 1, #expected do
    assert.is_near(expected[i], got[i], tol or TOL)
  end
end

describe("get_steering", function()
  it("seek and flee: normalize((3,4)) * 10 = (6, 8)", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0, 1, 1)
    local lx, ly, ang = steer.seek{ target = { 3, 4 } }:get_steering(a)
    assert.are.equal(6, lx); assert.are.equal(8, ly); assert.are.equal(0, ang)
    same({ -6, -8, 0 }, steering(steer.flee{ target = { 3, 4 } }, a))
    local t = spawn(w, 0, -2)
    same({ 0, -10, 0 }, steering(steer.seek{ target = t }, a))
    local s = steer.seek{ target = t }
    t:remove()
    assert.is_nil(s:get_steering(a)) -- a removed target: no steering
  end)

  it("kinematic seek: normalize((4,6)-(1,2)) * max_speed = (3, 4)", function()
    local w = steer.world{}
    local a = spawn(w, 1, 2)
    same({ 3, 4, 0 }, steering(steer.kinematic_seek{ target = { 4, 6 } }, a))
    same({ -3, -4, 0 }, steering(steer.kinematic_flee{ target = { 4, 6 } }, a))
  end)

  it("arrive: clamped outside, scaled inside slow_radius, nil inside target_radius", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0)
    local b = steer.arrive{ target = { 10, 0 }, target_radius = 0.5, slow_radius = 3 }
    same({ 10, 0, 0 }, steering(b, a))
    a:set_velocity(4, 3)
    same({ 3.16227766, -9.48683298, 0 }, steering(b, a))
    local big = steer.arrive{ target = { 1.5, 0 }, max_acceleration = 100 }
    a:set_velocity(0, 0)
    same({ 25, 0, 0 }, steering(big, a), 1e-3)
    a:set_velocity(1, 1)
    same({ 15, -10, 0 }, steering(big, a), 1e-3)
    -- inside target_radius at rest: no steering (the notes' None)
    a:set_velocity(0, 0)
    big.target = { 0.3, 0.3 }
    assert.is_nil(big:get_steering(a))
    big.target = { 0, 0 }
    assert.is_nil(big:get_steering(a))
  end)

  it("align: (pi - rotation) / 0.1, across +-pi the short way", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0)
    local b = steer.align{ orientation = 1 }
    same({ 0, 0, 10 * PI }, steering(b, a), 1e-3)
    a:set_orientation(0, 2)
    same({ 0, 0, 10 * (PI - 2) }, steering(b, a), 1e-3)
    a:set_orientation(-3, 0)
    same({ 0, 0, -17.7930576 }, steering(steer.align{ orientation = 3 }, a), 1e-3)
  end)

  it("velocity_match: ((2,1) - (1,1)) / 0.1 = (10, 0)", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0, 1, 1)
    local t = spawn(w, 10, 10, 2, 1)
    same({ 10, 0, 0 }, steering(steer.velocity_match{ target = t }, a))
    a:set_velocity(0, 0); t:set_velocity(3, 4)
    same({ 6, 8, 0 }, steering(steer.velocity_match{ target = t }, a))
    same({ 3, 4, 0 }, steering(steer.velocity_match{ target = t, time_to_target = 1 }, a))
  end)

  it("pursue and evade: the predicted point", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0, 5, 0)
    local t = spawn(w, 10, 0, 0, 3)
    same({ 8.5749293, 5.1449576, 0 }, steering(steer.pursue{ target = t, max_prediction = 4 }, a))
    same({ 9.1192151, 4.1036468, 0 }, steering(steer.pursue{ target = t, max_prediction = 1.5 }, a))
    a:set_velocity(0, 0)
    same({ -9.5782629, -2.8734789, 0 }, steering(steer.evade{ target = t, max_prediction = 1 }, a))
  end)

  it("pursue arrives on overshoot when asked", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0, 4, 0)
    local t = spawn(w, 2, 0)
    same({ 10, 0, 0 }, steering(steer.pursue{ target = t }, a))
    same({ -6.6666667, 0, 0 }, steering(steer.pursue{ target = t, arrive_on_overshoot = true }, a), 1e-3)
  end)

  it("separation pushes away from a close neighbour", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0)
    spawn(w, 1, 0)
    -- inverse square: min(10 / 1^2, 10) = 10 away from (1, 0)
    same({ -10, 0, 0 }, steering(steer.separation{ radius = 2 }, a))
    -- linear: 10 * (2 - 1) / 2 = 5
    same({ -5, 0, 0 }, steering(steer.separation{ radius = 2, law = "linear" }, a))
    assert.is_nil(steer.separation{ radius = 0.5 }:get_steering(a))
  end)

  it("cohesion pulls towards the neighbours' centre", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0)
    spawn(w, 2, 0); spawn(w, 0, 2)
    -- centre (1, 1); (1, 1) * 10 / 8 = (1.25, 1.25)
    same({ 1.25, 1.25, 0 }, steering(steer.cohesion{ radius = 8 }, a))
  end)

  it("blend sums weighted outputs and clamps; priority takes the first group above epsilon", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0)
    local seek = steer.seek{ target = { 3, 4 } }
    local flee = steer.flee{ target = { 3, 4 } }
    same({ 3, 4, 0 }, steering(steer.blend{ { seek, weight = 1.5 }, { flee, weight = 1 } }, a))
    same({ 6, 8, 0 }, steering(steer.blend{ { seek, weight = 3 } }, a)) -- clamped to 10
    local none = steer.arrive{ target = { 0, 0 } }
    same({ 6, 8, 0 }, steering(steer.priority{ none, seek, flee }, a))
    assert.is_nil(steer.priority{ none }:get_steering(a))
    assert.is_nil(steer.blend{}:get_steering(a))
  end)

  it("limit overrides hold for the behaviour", function()
    local w = steer.world{}
    local a = spawn(w, 0, 0)
    same({ 3, 4, 0 }, steering(steer.seek{ target = { 3, 4 }, max_acceleration = 5 }, a))
  end)

  it("does not change the run (a preview)", function()
    local w = steer.world{ seed = 3 }
    local a = spawn(w, 0, 0, 1, 0)
    local wander = steer.wander{}
    a.steering = wander
    local h = w:hash()
    local one = steering(wander, a)
    same(one, steering(wander, a), 0)
    assert.are.equal(h, w:hash())
  end)
end)

describe("orientation convention", function()
  it("heading(a) = (sin a, cos a), orientation_of(x, y) = atan2(x, y), round trip", function()
    local x, y = steer.heading(0)
    assert.is_near(0, x, 1e-7); assert.is_near(1, y, 1e-7)
    x, y = steer.heading(PI / 2)
    assert.is_near(1, x, 1e-6); assert.is_near(0, y, 1e-6)
    for _, a in ipairs({ -3, -1.5, -0.2, 0, 0.7, 2, 3.1 }) do
      assert.is_near(a, steer.orientation_of(steer.heading(a)), 1e-6)
    end
    assert.are.equal(0, steer.orientation_of(0, 0))
    local w = steer.world{}
    local agent = w:spawn{ orientation = 0.5 }
    local hx, hy = agent:heading()
    assert.is_near(math.sin(0.5), hx, 1e-6); assert.is_near(math.cos(0.5), hy, 1e-6)
    -- face_velocity: moving along +x faces pi/2
    local mover = w:spawn{ vx = 1, face_velocity = true }
    w:step(0.1)
    assert.is_near(PI / 2, mover.orientation, 1e-6)
  end)
end)
