# Install the build into a scratch prefix, then build and run a consumer two
# ways: find_package(steer CONFIG) and pkg-config (from a moved prefix, which
# proves steer.pc computes its prefix from its own location).
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/script_steps.cmake)
require_vars(BUILD_DIR SOURCE_DIR WORK_DIR C_COMPILER)

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
if(NOT EXISTS ${prefix}/share/doc/steer/LICENSE)
  message(FATAL_ERROR "cmake --install did not install the licence (share/doc/steer/LICENSE)")
endif()

# 1. find_package(steer CONFIG)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${C_COMPILER})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
run(${WORK_DIR}/build/consumer_cpp)

# 2. pkg-config, from a prefix moved elsewhere after installation
find_program(PKG_CONFIG pkg-config REQUIRED)
file(RENAME ${prefix} ${WORK_DIR}/moved)
file(GLOB pcdir ${WORK_DIR}/moved/lib*/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "${pcdir}")
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs --static steer OUTPUT_VARIABLE flags RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not find steer in ${pcdir}")
endif()
if(NOT flags MATCHES "${WORK_DIR}/moved")
  message(FATAL_ERROR "steer.pc does not point into its own prefix: ${flags}")
endif()
separate_arguments(flag_list UNIX_COMMAND "${flags}")
run(${C_COMPILER} -std=c11 ${SOURCE_DIR}/main.c ${flag_list} -o ${WORK_DIR}/consumer-pc)
# (a shared build needs the loader to find the moved library)
get_filename_component(libdir ${pcdir} DIRECTORY)
set(ENV{LD_LIBRARY_PATH} "${libdir}")
run(${WORK_DIR}/consumer-pc)
