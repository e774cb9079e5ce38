# ctest: install sluice from BUILD_DIR into a fresh prefix, build examples/installed against it, run it.
set(work ${WORK_DIR}/installed-package)
file(REMOVE_RECURSE ${work})
foreach(step
    "${CMAKE_COMMAND};--install;${BUILD_DIR};--prefix;${work}/prefix"
    "${CMAKE_COMMAND};-S;${SOURCE_DIR}/examples/installed;-B;${work}/build;-DCMAKE_PREFIX_PATH=${work}/prefix;-DCMAKE_BUILD_TYPE=Release"
    "${CMAKE_COMMAND};--build;${work}/build"
    "${work}/build/example")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "installed-package step failed (${rc}): ${step}")
  endif()
endforeach()
