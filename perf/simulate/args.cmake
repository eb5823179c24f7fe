# eagle-simulate's command line as a library of its own: plain C++ over CLI11 (no Kokkos), so that
# the fuzz project (tests/fuzz, clang with libFuzzer) builds this same target with its sanitizers.
find_package(CLI11 REQUIRED)
add_library(eagle_simulate_args STATIC "${CMAKE_CURRENT_LIST_DIR}/src/args.cpp")
target_include_directories(eagle_simulate_args PUBLIC "${CMAKE_CURRENT_LIST_DIR}/include")
target_compile_features(eagle_simulate_args PUBLIC cxx_std_17)
target_link_libraries(eagle_simulate_args PRIVATE CLI11::CLI11)
