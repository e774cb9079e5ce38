# The Python package's tests, where it is built (SLUICE_BUILD_PYTHON): pytest on the module of this build, then
# `pip install ./python` of this build folder into a folder of its own and an import from there, so that the
# packaging cannot silently break. GPU tests (test_gpu.py) skip with their reason where no GPU runs them;
# SLUICE_TEST_GPU=1 makes that a failure.
add_test(NAME python_pytest
  COMMAND ${Python_EXECUTABLE} -m pytest -q -p no:cacheprovider ${PROJECT_SOURCE_DIR}/python/tests)
set_tests_properties(python_pytest PROPERTIES ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python" TIMEOUT 900
  PASS_REGULAR_EXPRESSION "[1-9][0-9]* passed" FAIL_REGULAR_EXPRESSION "[0-9]+ (failed|error)")
add_test(NAME python_pip_install
  COMMAND ${CMAKE_COMMAND} -DPYTHON=${Python_EXECUTABLE} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DBUILD_DIR=${PROJECT_BINARY_DIR}
          -P ${PROJECT_SOURCE_DIR}/python/pip_install_test.cmake)
set_tests_properties(python_pip_install PROPERTIES TIMEOUT 600 PASS_REGULAR_EXPRESSION "pip install: ok")
