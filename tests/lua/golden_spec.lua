-- The cross-build golden hash: one scene with a bit of everything whose
-- arithmetic a compiler could change (an anchored formation and a led one,
-- a crowd under reciprocal avoidance with contact resolution, obstacle
-- avoidance among shapes, wander, and a behaviour written in Lua), stepped
-- with 1 and 3 workers. The same pinned hash must come out of every build
-- `make test` makes (Release gcc -O3, gcc -O0 with sanitizers, clang -O2
-- with sanitizers), and out of the aarch64 cross build under qemu-user
-- (tests/lua/golden_check.lua, `make test-aarch64`): a build that differs
-- fails here (issue 20: gcc's SLP vectorizer once dropped a float rounding
-- in the formations). The scene and the pinned hash: golden_scene.lua.
local golden = require "golden_scene"

describe("the cross-build golden hash", function()
  it("is the pinned one for 1 and 3 workers, in this build", function()
    local one, count = golden.scene(1)
    local three = golden.scene(3)
    assert.are.equal(golden.AGENTS, count)
    assert.are.equal(one, three)
    assert.are.equal(golden.HASH, one)
  end)
end)
