-- The shared-goal hallway with one column each way (10 + 10 agents).
return assert(loadfile((... or "") .. "matrix/hallway_shared.lua"))(1)
