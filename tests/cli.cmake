# The command-line tool's checks of names and parameters, `sluice list`'s defaults and bench's busy-machine
# column. Included at the end of tests/CMakeLists.txt; run with -P, this file is the checker those tests call.
#
# As a checker: cmake -DSLUICE=<binary> -DARGS=<words joined by ^^> -DRC=<exit status> [-DEXPECT=<regex>]
#   [-DFORBID=<regex>] [-DONE_LINE=1] [-DFILE=<path> -DFILE_EXPECT=<regex>] -P cli.cmake
# runs the binary, then checks its exit status, that stdout + stderr match EXPECT and not FORBID, that stderr
# is a single line (ONE_LINE), and that FILE exists and matches FILE_EXPECT.
if(CMAKE_SCRIPT_MODE_FILE)
  string(REPLACE "^^" ";" words "${ARGS}")
  if(DEFINED FILE)
    file(REMOVE "${FILE}")
  endif()
  execute_process(COMMAND ${SLUICE} ${words} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(all "${out}${err}")
  if(NOT rc STREQUAL RC)
    message(FATAL_ERROR "exit status ${rc}, not ${RC}:\n${all}")
  endif()
  if(DEFINED EXPECT AND NOT all MATCHES "${EXPECT}")
    message(FATAL_ERROR "output lacks /${EXPECT}/:\n${all}")
  endif()
  if(DEFINED FORBID AND all MATCHES "${FORBID}")
    message(FATAL_ERROR "output matches /${FORBID}/:\n${all}")
  endif()
  if(ONE_LINE)
    string(REGEX MATCHALL "\n" newlines "${err}")
    list(LENGTH newlines lines)
    if(NOT lines EQUAL 1)
      message(FATAL_ERROR "stderr is ${lines} lines, not one:\n${err}")
    endif()
  endif()
  if(DEFINED FILE)
    if(NOT EXISTS "${FILE}")
      message(FATAL_ERROR "no ${FILE}:\n${all}")
    endif()
    file(READ "${FILE}" text)
    if(NOT text MATCHES "${FILE_EXPECT}")
      message(FATAL_ERROR "${FILE} lacks /${FILE_EXPECT}/:\n${text}")
    endif()
  endif()
  message(STATUS "cli check: ok")
  return()
endif()

# sluice_cli_check(NAME <test> RC <status> ARGS <word>... [EXPECT <regex>] [FORBID <regex>] [ONE_LINE]
#                  [FILE <path> FILE_EXPECT <regex>])
function(sluice_cli_check)
  cmake_parse_arguments(C "ONE_LINE" "NAME;RC;EXPECT;FORBID;FILE;FILE_EXPECT" "ARGS" ${ARGN})
  string(REPLACE ";" "^^" joined "${C_ARGS}")
  set(defs -DSLUICE=$<TARGET_FILE:sluice_cli> "-DARGS=${joined}" -DRC=${C_RC})
  foreach(key EXPECT FORBID FILE FILE_EXPECT)
    if(DEFINED C_${key})
      list(APPEND defs "-D${key}=${C_${key}}")
    endif()
  endforeach()
  if(C_ONE_LINE)
    list(APPEND defs -DONE_LINE=1)
  endif()
  add_test(NAME ${C_NAME} COMMAND ${CMAKE_COMMAND} ${defs} -P ${CMAKE_CURRENT_LIST_DIR}/cli.cmake)
  set_tests_properties(${C_NAME} PROPERTIES PASS_REGULAR_EXPRESSION "cli check: ok" TIMEOUT 600)
endfunction()

# Unknown names list every valid one (billeter was hidden behind billeter-scan), one line, exit status 2.
sluice_cli_check(NAME cli_unknown_algo_lists_every_cpu_name RC 2 ONE_LINE ARGS verify --algo quantum
  EXPECT "unknown algorithm 'quantum' on cpu \\(valid: all, serial, vectorized, billeter-scan, billeter, split, lsd-serial, lsd-parallel, msd-lsd, three-phase, multisplit, radix-select\\)")
sluice_cli_check(NAME cli_unknown_algo_lists_every_cuda_name RC 2 ONE_LINE ARGS verify --device cuda --algo quantum
  EXPECT ", billeter-scan, streaming, scan-scatter, horn, roger, billeter, billeter-staged, ")
# Bad parameters: refused before any case runs, naming the valid keys or values.
sluice_cli_check(NAME cli_verify_param_not_a_number RC 2 ONE_LINE ARGS verify --algo billeter:threads=banana
  EXPECT "algorithm 'billeter:threads=banana': threads=banana is not an integer in \\[0, 4096\\]" FORBID "passed|FAILED")
sluice_cli_check(NAME cli_verify_param_out_of_range RC 2 ONE_LINE ARGS verify --algo billeter:threads=5000
  EXPECT "threads=5000 is not an integer in \\[0, 4096\\]" FORBID "passed|FAILED")
sluice_cli_check(NAME cli_verify_param_not_a_choice RC 2 ONE_LINE ARGS verify --algo billeter:simd=avx9
  EXPECT "simd=avx9 is not one of auto, avx512, avx2, scalar")
sluice_cli_check(NAME cli_verify_param_unknown_key RC 2 ONE_LINE ARGS verify --algo billeter:bogus=1
  EXPECT "unknown parameter 'bogus' \\(valid: threads, simd; threads: an integer in \\[0, 4096\\]; simd: auto\\|avx512\\|avx2\\|scalar\\)")
sluice_cli_check(NAME cli_verify_takes_no_params_exit_2 RC 2 ONE_LINE ARGS verify --algo serial:x=1 EXPECT "takes no parameters")
# A GPU variant's parameters are checked even where there is no GPU (and before the device is looked for).
sluice_cli_check(NAME cli_verify_gpu_param_checked RC 2 ONE_LINE ARGS verify --device cuda --algo roger:s=3
  EXPECT "s=3 is not a power of two in \\[2, 1024\\]")
sluice_cli_check(NAME cli_verify_with_params RC 0 ARGS verify --device cpu --quick --max-size 300 --algo billeter:threads=2,simd=scalar
  EXPECT "compact +billeter:threads=2,simd=scalar cpu +[1-9][0-9]* passed, 0 failed\n.*[1-9][0-9]* passed, 0 failed\n$")
# bench: the same checks before any timing, --primitive too.
sluice_cli_check(NAME cli_bench_unknown_algo RC 2 ONE_LINE ARGS bench --device cpu --algo nope
  EXPECT "unknown algorithm 'nope' on cpu \\(valid: best, serial, vectorized, billeter-scan, billeter, split, lsd-serial, lsd-parallel, msd-lsd; peers: std::reduce"
  FORBID "memcpy-mt|wrote")
sluice_cli_check(NAME cli_bench_bad_param RC 2 ONE_LINE ARGS bench --device cpu --algo billeter:threads=banana
  EXPECT "threads=banana is not an integer" FORBID "memcpy-mt|wrote")
sluice_cli_check(NAME cli_bench_unknown_primitive RC 2 ONE_LINE ARGS bench --device cpu --primitive nope
  EXPECT "unknown primitive 'nope' \\(valid: reduce, inclusive_scan, exclusive_scan, compact, compact_if, compact_unordered, partition,")
sluice_cli_check(NAME cli_bench_algo_lacks_the_primitive RC 2 ONE_LINE ARGS bench --device cpu --primitive reduce --algo billeter
  EXPECT "algorithm 'billeter' has no reduce variant on cpu")
sluice_cli_check(NAME cli_bench_nothing_to_time RC 2 ARGS bench --device cpu --suite production --n 2^10 --primitive reduce --algo std::sort
  --out ${CMAKE_CURRENT_BINARY_DIR}/bench-nothing EXPECT "leave nothing of suite 'production' on cpu to time")
# A variant with parameters in the quick suite; the CSV's machine_busy column.
sluice_cli_check(NAME cli_bench_quick_with_params RC 0 ARGS bench --device cpu --n 2^10 --primitive compact --algo billeter:threads=1
  --out ${CMAKE_CURRENT_BINARY_DIR}/bench-quick-params EXPECT "compact +billeter:threads=1 +u32 +n=1024 "
  FILE ${CMAKE_CURRENT_BINARY_DIR}/bench-quick-params/quick-cpu.csv
  FILE_EXPECT "^primitive,algorithm,device,element_type,n,valid_ratio,block_size,ms,gbps,fraction_of_memcpy,repetitions,machine_busy\ncopy,memcpy-mt,cpu,u32,1024,[^\n]*,[01]\n")
# The quick figure: the default marked and coloured apart from the other variants and the peers.
sluice_cli_check(NAME cli_bench_quick_figure_marks_defaults RC 0 ARGS bench --device cpu --n 2^12 --primitive compact
  --out ${CMAKE_CURRENT_BINARY_DIR}/bench-quick-figure
  FILE ${CMAKE_CURRENT_BINARY_DIR}/bench-quick-figure/quick-cpu-fraction.gp
  FILE_EXPECT "\"compact  billeter \\(default\\)  u32[^\"\n]*\" [^\n]*\n.*title \"sluice, the default on cpu\".*title \"peers \\(std::, TBB, CUB\\)\"")
sluice_cli_check(NAME cli_bench_help_states_the_busy_rule RC 0 ARGS bench --help EXPECT "machine looks busy.*machine_busy=1")
# `sluice list`: a default column, one device per line.
sluice_cli_check(NAME cli_list_marks_defaults RC 0 ARGS list
  EXPECT "\ncompact serial cpu stable -\ncompact billeter cpu stable default params: .*\ncompact decoupled-lookback cuda stable default params: .*\ncompact scan-scatter cuda stable -\n")

# The registry's typed parameters, the command line's checks, the busy rules and the figures' log axis.
add_executable(sluice_cli_tests params_test.cpp ${PROJECT_SOURCE_DIR}/tools/sluice/cli.cpp ${PROJECT_SOURCE_DIR}/tools/sluice/plot.cpp)
target_include_directories(sluice_cli_tests PRIVATE ${PROJECT_SOURCE_DIR}/tools/sluice)
target_link_libraries(sluice_cli_tests PRIVATE sluice sluice_verify GTest::gtest GTest::gtest_main)
gtest_discover_tests(sluice_cli_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
