-- Two agents sent to one point from 6 m either side of it, head-on.
return {
  family = "contend", mode = "contend", time_limit = 40,
  agents = { { x = -6, y = 0, gx = 0, gy = 0 }, { x = 6, y = 0, gx = 0, gy = 0 } },
}
