# LuaRocks: `luarocks --lua-version=5.4 make --tree <tree> <rockspec>` from a
# clean copy of the source tree (no build directories), with no network, then
# a short script against the installed module under a stock lua5.4.
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/script_steps.cmake)
require_vars(SOURCE_DIR WORK_DIR ROCKSPEC LUAROCKS LUA VERSION)

# the checkout, as a clone would have it: everything but build trees
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/src ${WORK_DIR}/home)
file(GLOB entries LIST_DIRECTORIES true RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*)
foreach(entry ${entries})
  if(entry MATCHES "^(\\.git|build.*|cmake-build.*|out)$" OR EXISTS ${SOURCE_DIR}/${entry}/CMakeCache.txt)
    continue()
  endif()
  file(COPY ${SOURCE_DIR}/${entry} DESTINATION ${WORK_DIR}/src)
endforeach()

# HOME in the work tree: luarocks keeps its cache and config there, not in the user's
set(tree ${WORK_DIR}/tree)
execute_process(COMMAND ${CMAKE_COMMAND} -E env HOME=${WORK_DIR}/home
    ${LUAROCKS} --lua-version=5.4 make --tree ${tree} ${ROCKSPEC}
  WORKING_DIRECTORY ${WORK_DIR}/src RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "luarocks make ${ROCKSPEC} failed (${rc}):\n${out}\n${err}")
endif()

# the module from the tree only (not the build's), and the annotations the rock keeps
file(GLOB_RECURSE meta ${tree}/lib/luarocks/rocks-5.4/steer/*/steer.lua)
if(NOT meta)
  message(FATAL_ERROR "the rock did not install the annotations (share/steer/library/steer.lua)")
endif()
run(${CMAKE_COMMAND} -E env "LUA_CPATH=${tree}/lib/lua/5.4/?.so" "LUA_PATH=${tree}/share/lua/5.4/?.lua"
  ${LUA} ${CMAKE_CURRENT_LIST_DIR}/smoke.lua ${tree} ${VERSION} ${meta})
