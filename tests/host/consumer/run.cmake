# Install the build into a scratch prefix, build the example of
# docs/embedding.md against it with find_package(steer CONFIG), run it; build
# it again with pkg-config (steer-host.pc) and run that; steer-viewer is
# installed when it was built.
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/script_steps.cmake)
require_vars(BUILD_DIR SOURCE_DIR WORK_DIR EXAMPLE SCRIPT C_COMPILER)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
    -DCMAKE_C_COMPILER=${C_COMPILER} -DEXAMPLE=${EXAMPLE})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/host_consumer ${SCRIPT})
run(${WORK_DIR}/prefix/bin/steer-run ${SCRIPT} --steps 10)

# pkg-config: steer-host.pc (and steer-lua.pc) in <prefix>/<libdir>/pkgconfig
file(GLOB pcdir ${WORK_DIR}/prefix/lib*/pkgconfig ${WORK_DIR}/prefix/lib/*/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "${pcdir}")
foreach(pc steer-lua steer-host)
  execute_process(COMMAND pkg-config --cflags --libs ${pc} RESULT_VARIABLE rc OUTPUT_VARIABLE flags
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config ${pc} failed (${pcdir})")
  endif()
  message(STATUS "${pc}: ${flags}")
endforeach()
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${C_COMPILER} ${EXAMPLE} -o ${WORK_DIR}/host_pc ${flags} -lm -lpthread)
run(${WORK_DIR}/host_pc ${SCRIPT})
if(VIEWER AND NOT EXISTS ${WORK_DIR}/prefix/bin/steer-viewer)
  message(FATAL_ERROR "steer-viewer was built but not installed")
endif()
