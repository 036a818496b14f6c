-- Random layouts of 60 agents in a 30 m square.
return assert(loadfile((... or "") .. "matrix/random.lua"))(60, 30)
