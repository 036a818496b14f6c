-- The golden scene's hash (golden_scene.lua) without busted, for builds
-- whose interpreter cannot load busted's C modules: the aarch64 cross build,
-- run by its steer-lua under qemu-user (ctest golden.aarch64, `make
-- test-aarch64`). Checks 1 and 3 workers against the pinned hash; prints
-- both hashes either way, and "golden ok" when they match.
local golden = require "golden_scene"

local one, count = golden.scene(1)
local three = golden.scene(3)
print(("golden scene: %d agents, %d steps: 1 worker %s, 3 workers %s, pinned %s"):format(
  count, golden.STEPS, one, three, golden.HASH))
assert(count == golden.AGENTS, ("%d agents, expected %d"):format(count, golden.AGENTS))
assert(one == three, "1 and 3 workers differ")
assert(one == golden.HASH, "the hash is not the pinned one")
print("golden ok")
