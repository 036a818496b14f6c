-- Four groups of 9 (3 rows, 3 deep; radius 1.5 to 2, every third 0.5)
-- from the four sides cross the middle of an open square at the bigstep
-- settings, each group to one point 10 m past the middle, where its agents
-- leave the world (the junction family without the blocks).
return assert(loadfile((... or "") .. "matrix/big_groups.lua"))(..., "cross", 3, 3, 3, "shared")
