# The annotations in the repository (where editors find them) are the ones
# the build generates: -DGENERATED=<build copy> -DCOMMITTED=<repository copy>.
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${GENERATED} ${COMMITTED} RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "${COMMITTED} is not the generated ${GENERATED}: "
    "run `cmake --build <build> --target update_annotations` and commit it")
endif()
