# The generator refuses hand-written parts that have drifted from the engine:
# a reflected parameter or behaviour type without its line, or a line that
# names nothing. -DGEN=<gen_annotations> -DTEMPLATE=<steer.meta.lua> -DWORK_DIR=<dir>
file(MAKE_DIRECTORY ${WORK_DIR})
file(READ ${TEMPLATE} original)

# Run the generator on a variant of the template; check it fails (or not)
# with the expected message.
function(expect name text should_fail pattern)
  file(WRITE ${WORK_DIR}/${name}.meta.lua "${text}")
  execute_process(COMMAND ${GEN} ${WORK_DIR}/${name}.meta.lua ${WORK_DIR}/${name}.lua
    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(should_fail AND rc EQUAL 0)
    message(FATAL_ERROR "${name}: the generator accepted it")
  elseif(NOT should_fail AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: the generator failed: ${err}")
  elseif(NOT err MATCHES "${pattern}")
    message(FATAL_ERROR "${name}: expected a message matching '${pattern}', got '${err}'")
  endif()
  message(STATUS "${name}: ok ${err}")
endfunction()

expect(unchanged "${original}" FALSE "^$")
string(REGEX REPLACE "\n--@@ param lookahead [^\n]*" "" text "${original}")
expect(missing_param "${text}" TRUE "no '--@@ param lookahead <text>' line for the reflected parameter 'lookahead'")
string(REGEX REPLACE "\n--@@ summary wander [^\n]*" "" text "${original}")
expect(missing_summary "${text}" TRUE "no '--@@ summary wander <text>' line for the behaviour type 'wander'")
string(REGEX REPLACE "\n--@@ doc world.seed [^\n]*" "" text "${original}")
expect(missing_doc "${text}" TRUE "no '--@@ doc world.seed <text>' line for the reflected field 'world.seed'")
expect(stale_param "${original}\n--@@ param lookahed the old name\n" TRUE "matches no behaviour or parameter")
expect(unknown_type "${original}\n--@@ field sek target steer.Target a typo\n" TRUE "no behaviour type 'sek'")
