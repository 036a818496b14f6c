-- The two-way corridor with 8 agents each way (a corridor 24 m long).
return assert(loadfile((... or "") .. "matrix/corridor.lua"))(8)
