# Install the build into a scratch prefix, build the example of
# docs/embedding.md against it with find_package(steer CONFIG), run it.
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/script_steps.cmake)
require_vars(BUILD_DIR SOURCE_DIR WORK_DIR EXAMPLE SCRIPT C_COMPILER)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
    -DCMAKE_C_COMPILER=${C_COMPILER} -DEXAMPLE=${EXAMPLE})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/host_consumer ${SCRIPT})
run(${WORK_DIR}/prefix/bin/steer-run ${SCRIPT} --steps 10)
