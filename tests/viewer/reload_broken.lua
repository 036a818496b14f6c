-- reload_broken.lua: a version with a syntax error on line 4.
local steer = require "steer"
return {
  roles = { walker = steer.wander{ wander_rate = = 0.2 } },
}
