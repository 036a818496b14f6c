-- Two agents whose straight paths cross at right angles, arriving together.
return {
  small = true, time_limit = 40,
  agents = { { x = -10, y = 0, gx = 10, gy = 0 }, { x = 0, y = -10, gx = 0, gy = 10 } },
}
