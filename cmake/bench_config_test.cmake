# ctest scripts_bench_config: scripts/bench.sh builds what the machine can run, and says which without building
# (--print-config). Asked for, CUDA is ON; SLUICE_ENABLE_CUDA=OFF gives the CPU-only build in its own folder;
# left to itself, CUDA is OFF where no GPU is found (that case is checked only on such a machine: elsewhere it
# must say ON). Usage: cmake -DSOURCE_DIR=<repository> -P bench_config_test.cmake
set(script ${SOURCE_DIR}/scripts/bench.sh)

# expect(NAME REGEX ENV... -- ARGS...): bench.sh --print-config ARGS with SLUICE_ENABLE_CUDA and BUILD_DIR unset
# and ENV set (NAME=VALUE); its output must match REGEX.
function(expect name regex)
  set(env)
  set(args)
  set(in_args OFF)
  foreach(a IN LISTS ARGN)
    if(a STREQUAL "--")
      set(in_args ON)
    elseif(in_args)
      list(APPEND args ${a})
    else()
      list(APPEND env ${a})
    endif()
  endforeach()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=SLUICE_ENABLE_CUDA --unset=BUILD_DIR ${env}
                          bash ${script} --print-config ${args}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${regex}")
    message(FATAL_ERROR "bench config, ${name}: expected /${regex}/, got (exit ${rc}):\n${out}${err}")
  endif()
  message(STATUS "${name}: ${out}")
endfunction()

expect("--device cuda" "CUDA ON \\(--device cuda\\)\nbench config: build folder build\n.*-DSLUICE_BUILD_TESTS=ON.*-DSLUICE_ENABLE_CUDA=ON" --
       --suite quick --device cuda)
expect("SLUICE_ENABLE_CUDA=ON" "CUDA ON .*build folder build\n.*-DSLUICE_ENABLE_CUDA=ON" SLUICE_ENABLE_CUDA=ON)
expect("SLUICE_ENABLE_CUDA=OFF" "CUDA OFF .*build folder build-cpu\n.*-DSLUICE_BUILD_TESTS=ON.*-DSLUICE_ENABLE_CUDA=OFF"
       SLUICE_ENABLE_CUDA=OFF -- --device cuda)

# Whether this machine has a GPU, asked the way bench.sh asks.
set(gpu OFF)
if(EXISTS /dev/nvidia0)
  set(gpu ON)
else()
  execute_process(COMMAND nvidia-smi -L OUTPUT_VARIABLE smi ERROR_QUIET RESULT_VARIABLE smi_rc)
  if(smi_rc EQUAL 0 AND smi MATCHES "(^|\n)GPU ")
    set(gpu ON)
  endif()
endif()
if(gpu)
  expect("no arguments, a GPU present" "CUDA ON \\(a GPU is present")
else()
  expect("no arguments, no GPU" "CUDA OFF \\(no GPU found[^\n]*\nbench config: build folder build-cpu\n.*-DSLUICE_ENABLE_CUDA=OFF")
endif()
message(STATUS "bench config: ok")
