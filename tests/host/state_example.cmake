# The script of docs/embedding.md's "State across reload and reset", taken
# from the document, runs under steer-run without an error.
file(READ ${DOC} text)
string(REGEX MATCH "```lua\n([^`]*)\n```\n<!-- end of the state example -->" found "${text}")
if(CMAKE_MATCH_1 STREQUAL "")
  message(FATAL_ERROR "${DOC}: no ```lua block ending with <!-- end of the state example -->")
endif()
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/squad.lua "${CMAKE_MATCH_1}\n")
execute_process(COMMAND ${RUN} ${WORK}/squad.lua --steps 130 OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "wave 1, captain at [-0-9.]+, 6 in the squad\nwave 1" OR "${out}${err}" MATCHES "error")
  message(FATAL_ERROR "the state example: status ${rc}")
endif()
