# `pip install ./python` with this build folder (SLUICE_BUILD_DIR: nothing is compiled again), into a folder of
# its own, then the installed package imported from there and run once.
set(target ${BUILD_DIR}/python-pip-install)
file(REMOVE_RECURSE ${target})
execute_process(COMMAND ${CMAKE_COMMAND} -E env SLUICE_BUILD_DIR=${BUILD_DIR} PWD=${BUILD_DIR}
    ${PYTHON} -m pip install --no-deps --no-build-isolation --no-index --target ${target} ${SOURCE_DIR}/python
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pip install ./python failed (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${target} ${PYTHON} -c
    "import numpy as np, sluice; x = np.arange(10, dtype=np.int32); assert sluice.__file__.startswith('${target}'); assert list(sluice.compact_if(x, sluice.at_least(7))) == [7, 8, 9]; print('installed', sluice.__version__)"
  WORKING_DIRECTORY ${BUILD_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed package failed (${rc}):\n${out}\n${err}")
endif()
message("${out}pip install: ok")
