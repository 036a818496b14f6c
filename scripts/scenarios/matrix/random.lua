-- Random starting layouts: `n` agents at random points of a square of
-- side `side`, each to a random goal (starts and goals at least 2.5 m
-- apart), drawn from the world seed; kept on arrival.
local n, side = ...
n, side = tonumber(n) or 60, tonumber(side) or 30
return {
  family = "random", mode = "keep", time_limit = 90, random = { n = n, side = side },
}
