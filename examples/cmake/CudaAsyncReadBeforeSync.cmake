# CudaAsyncReadBeforeSync.cmake: a lint target for a CMake project, on the
# build tool's own parallelism.
#
#   include(CudaAsyncReadBeforeSync)   # this file, copied or from the docs folder
#   cars_add_lint_target(cars-lint SHARDS 4 [SARIF <file>] [GATE <path>])
#
# `cmake --build build --target cars-lint` then runs the gate
# (cuda-async-read-before-sync-gate) over the project's compile database in
# SHARDS parallel commands (one per shard, as the build tool schedules them:
# Ninja's or make's -j), merges their summary caches, runs the shards again
# (each re-analyses only its units whose runs did not see a summary now
# known; the rest come from the merged cache), and merges their SARIF logs
# into SARIF (default <build>/cars.sarif; paths relative to the project's
# source directory). The target fails when the gate
# finds something, with the findings on the build's output. Needs
# CMAKE_EXPORT_COMPILE_COMMANDS ON. docs/integration.md ("A matrix of
# shards") says what each step does; test/integration/multi-tu-project.test
# builds this target.
#
# GATE: the gate's path (default: found on PATH, or $CARS_GATE). A missing
# gate is a configure-time message and no target, not an error.
include_guard(GLOBAL)

function(cars_add_lint_target name)
  cmake_parse_arguments(ARG "" "SHARDS;SARIF;GATE" "" ${ARGN})
  if(NOT ARG_SHARDS)
    set(ARG_SHARDS 1)
  endif()
  if(NOT ARG_SHARDS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "cars_add_lint_target: SHARDS must be a positive integer, not '${ARG_SHARDS}'")
  endif()
  if(NOT ARG_SARIF)
    set(ARG_SARIF ${CMAKE_BINARY_DIR}/cars.sarif)
  endif()
  if(NOT ARG_GATE)
    find_program(CARS_GATE_PROGRAM cuda-async-read-before-sync-gate HINTS ENV CARS_GATE)
    set(ARG_GATE ${CARS_GATE_PROGRAM})
  endif()
  if(NOT ARG_GATE)
    message(STATUS "cars_add_lint_target: cuda-async-read-before-sync-gate not found; "
                   "no ${name} target (set GATE or CARS_GATE)")
    return()
  endif()
  if(NOT CMAKE_EXPORT_COMPILE_COMMANDS)
    message(WARNING "cars_add_lint_target: set CMAKE_EXPORT_COMPILE_COMMANDS ON for ${name}")
  endif()
  set(work ${CMAKE_BINARY_DIR}/cars-lint)
  # Custom targets, always out of date: what changed is the gate's cache's
  # to see. Targets that do not depend on each other run in parallel.
  set(caches)
  foreach(k RANGE 1 ${ARG_SHARDS})
    # First pass: each shard's summaries (its findings are not yet final),
    # from the cache the shard's last second pass left (all units' summaries).
    add_custom_target(${name}-summaries-${k}
      COMMAND ${CMAKE_COMMAND} -E env CARS_SUMMARY_CACHE=${work}/final-${k}
              ${ARG_GATE} -p ${CMAKE_BINARY_DIR} --shard ${k}/${ARG_SHARDS} -j 1 --exit-zero
      COMMENT "cuda-async-read-before-sync: summaries, shard ${k} of ${ARG_SHARDS}"
      VERBATIM)
    list(APPEND caches ${work}/final-${k})
  endforeach()
  add_custom_target(${name}-merge
    COMMAND ${CMAKE_COMMAND} -E env CARS_SUMMARY_CACHE=${work}/merged
            ${ARG_GATE} -p ${CMAKE_BINARY_DIR} --merge-cache ${caches}
    COMMENT "cuda-async-read-before-sync: merging the shards' summaries"
    VERBATIM)
  set(logs)
  foreach(k RANGE 1 ${ARG_SHARDS})
    add_dependencies(${name}-merge ${name}-summaries-${k})
    # Second pass: each shard from its own copy of the merged cache.
    add_custom_target(${name}-shard-${k}
      COMMAND ${CMAKE_COMMAND} -E rm -rf ${work}/final-${k}
      COMMAND ${CMAKE_COMMAND} -E copy_directory ${work}/merged ${work}/final-${k}
      COMMAND ${CMAKE_COMMAND} -E env CARS_SUMMARY_CACHE=${work}/final-${k}
              ${ARG_GATE} -p ${CMAKE_BINARY_DIR} --shard ${k}/${ARG_SHARDS} -j 1 --exit-zero
              --sarif ${work}/lint-${k}.sarif --source-root ${CMAKE_SOURCE_DIR}
      COMMENT "cuda-async-read-before-sync: shard ${k} of ${ARG_SHARDS}"
      VERBATIM)
    add_dependencies(${name}-shard-${k} ${name}-merge)
    list(APPEND logs ${work}/lint-${k}.sarif)
  endforeach()
  add_custom_target(${name}
    COMMAND ${ARG_GATE} --merge-sarif ${logs} --sarif ${ARG_SARIF}
    COMMENT "cuda-async-read-before-sync: the findings, in ${ARG_SARIF}"
    VERBATIM)
  foreach(k RANGE 1 ${ARG_SHARDS})
    add_dependencies(${name} ${name}-shard-${k})
  endforeach()
endfunction()
