-- A two-way doorway: 10 agents in each room, a door 1.6 m wide (twoway_door.lua).
return assert(loadfile((... or "") .. "matrix/twoway_door.lua"))(..., 10, 1.6)
