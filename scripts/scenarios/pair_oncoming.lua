-- Two agents walking straight at each other along one line.
return {
  small = true, time_limit = 40,
  agents = { { x = -10, y = 0, gx = 10, gy = 0 }, { x = 10, y = 0, gx = -10, gy = 0 } },
}
