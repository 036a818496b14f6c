-- Random layouts of 12 agents in a 12 m square.
return assert(loadfile((... or "") .. "matrix/random.lua"))(12, 12)
