# steer-run --snapshot-every N DIR and --from-snapshot FILE (issue 26): a run
# continued from a snapshot ends with the hash of the uninterrupted run (the
# showcase from every 50th frame, and a script whose roles hold a named Lua behaviour and whose
# agents carry data, for 1 and 2 workers); a snapshot naming a behaviour
# the script's roles lack, or a world with an unnamed Lua behaviour, fails
# with the name or the reason.
function(run_ok out_var)
  execute_process(COMMAND ${RUN} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "steer-run ${ARGN} failed (${rc}): ${out} ${err}")
  endif()
  string(REGEX MATCH "steps=[0-9]+ time=[0-9.]+s hash=[0-9a-f]+" h "${out}")
  string(REGEX MATCH "hash=[0-9a-f]+" h "${h}")
  if(h STREQUAL "")
    message(FATAL_ERROR "no hash from steer-run ${ARGN}: ${out}")
  endif()
  set(${out_var} "${h}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
# scripts/showcase.lua itself, continued from every 50th frame to frame
# 300, for 1 and 2 workers (the sanitizer builds run this too: 2,100 steps
# of the showcase in all)
foreach(workers 1 2)
  file(MAKE_DIRECTORY ${WORK}/showcase${workers})
  run_ok(whole ${SHOWCASE} --workers ${workers} --steps 300 --snapshot-every 50 ${WORK}/showcase${workers})
  foreach(frame RANGE 50 250 50)
    math(EXPR rest "300 - ${frame}")
    run_ok(continued ${SHOWCASE} --workers ${workers} --steps ${rest}
      --from-snapshot ${WORK}/showcase${workers}/frame-${frame}.snap)
    if(NOT whole STREQUAL continued)
      message(FATAL_ERROR "showcase, ${workers} workers, from frame ${frame}: ${continued}, uninterrupted ${whole}")
    endif()
  endforeach()
endforeach()

file(WRITE ${WORK}/drift.lua [[
local steer = require "steer"
local drift = steer.behaviour{ name = "drift", fn = function(agent)
  return agent.data.dx, 0.2
end }
return {
  roles = {
    walker = steer.blend{ steer.separation{ radius = 2 }, drift },
  },
  setup = function(world)
    for i = 1, 30 do
      local a = world:spawn{ x = (i % 6) * 1.2, y = math.floor(i / 6) * 1.2, role = "walker" }
      a.data.dx = (i % 3 - 1) * 0.5
    end
  end,
}
]])
foreach(workers 1 2)
  file(MAKE_DIRECTORY ${WORK}/drift${workers})
  run_ok(whole ${WORK}/drift.lua --workers ${workers} --steps 150 --snapshot-every 50 ${WORK}/drift${workers})
  run_ok(continued ${WORK}/drift.lua --workers ${workers} --steps 100 --from-snapshot ${WORK}/drift${workers}/frame-50.snap)
  if(NOT whole STREQUAL continued)
    message(FATAL_ERROR "drift, ${workers} workers: ${continued}, uninterrupted ${whole}")
  endif()
endforeach()

# the roles lack the behaviour the snapshot names
file(WRITE ${WORK}/other.lua "return { roles = { walker = require('steer').seek{ target = { 0, 0 } } } }\n")
execute_process(COMMAND ${RUN} ${WORK}/other.lua --from-snapshot ${WORK}/drift1/frame-50.snap
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "needs the behaviour 'drift'")
  message(FATAL_ERROR "missing binding: status ${rc}, stdout: ${out}, stderr: ${err}")
endif()
# an unnamed Lua behaviour cannot be saved
file(WRITE ${WORK}/unnamed.lua [[
local steer = require "steer"
return {
  roles = { a = steer.behaviour(function() return 0, 0 end) },
  setup = function(world) world:spawn{ role = "a" } end,
}
]])
file(MAKE_DIRECTORY ${WORK}/unnamed)
execute_process(COMMAND ${RUN} ${WORK}/unnamed.lua --steps 10 --snapshot-every 5 ${WORK}/unnamed
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT out MATCHES "snapshot at step 5: .*a callback behaviour has no name")
  message(FATAL_ERROR "unnamed behaviour: status ${rc}, stdout: ${out}, stderr: ${err}")
endif()
# a file that is not a snapshot
file(WRITE ${WORK}/junk.snap "junk")
execute_process(COMMAND ${RUN} ${WORK}/drift.lua --from-snapshot ${WORK}/junk.snap
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "not a steer snapshot")
  message(FATAL_ERROR "junk snapshot: status ${rc}, stdout: ${out}, stderr: ${err}")
endif()
message(STATUS "showcase ${whole}; drift ${continued}")
