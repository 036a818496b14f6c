-- The exit with radius-2 agents, four a column: the point passes a body
-- only when those round it stand back a body's width (junction's end game).
return assert(loadfile((... or "") .. "matrix/exit.lua"))(4, 2)
