# Run at every build of the benchmarks (cmake -P): writes the source tree's `git describe` into
# OUT, rewritten only when it changes, so a build tree reused across commits records the commit
# it was built from, not the one it was configured at. In: GIT_EXECUTABLE (may be empty),
# SOURCE_DIR, TEMPLATE, OUT.
set(EAGLE_GIT_REVISION unknown)
if(GIT_EXECUTABLE)
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
  if(NOT failed AND revision)
    set(EAGLE_GIT_REVISION "${revision}")
  endif()
endif()
configure_file("${TEMPLATE}" "${OUT}" @ONLY)
