#!/usr/bin/env bash
# The README's two commands, on a fresh Debian 12 machine as root:
#   bash cmake/setup/eagle.sh demo   installs what the demo needs, builds Kokkos (OpenMP) once and
#                                    only the demo, and runs it; extra arguments go to eagle-demo
#   bash cmake/setup/eagle.sh test   installs everything, builds and tests both Kokkos flavours
#                                    (Debian's prebuilt Serial, and the OpenMP build) and builds a
#                                    consumer project against each, installed and as a subdirectory;
#                                    then the tests again under ASan+UBSan on the OpenMP build (OpenMP
#                                    and Serial) and on a Kokkos debug build with View bounds checks;
#                                    then the fuzzers.
#                                    Ends with a table of each stage's minutes.
# EAGLE_BUILD_DIR (default <repo>/build) and EAGLE_CACHE (default ~/.cache/eagle) move the outputs.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${EAGLE_BUILD_DIR:-$root/build}
jobs=$(nproc)
command=${1:-}
case $command in
  demo | test) shift ;;
  *) echo "usage: $0 demo [eagle-demo options]|test" >&2; exit 2 ;;
esac
trap eagle_stage_table EXIT

eagle_stage "installing Debian packages ($command)" bash "$root/cmake/setup/install-debian-packages.sh" "$command"
# The Kokkos builds are cached: the stage builds once, the second call only prints the prefix.
kokkos() { bash "$root/cmake/setup/build-kokkos-openmp.sh" "$@"; }
eagle_stage "Kokkos 3.4.1 (OpenMP) from Debian's sources, cached" kokkos release >/dev/null
openmp_kokkos=$(kokkos release)

if [[ $command == demo ]]; then
  # Only the demo: no tests, no benchmarks' builds (a first figure within minutes).
  build_demo() {
    cmake -S "$root" -B "$build/demo" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$openmp_kokkos" \
      -DEAGLE_ENABLE_TESTS=OFF >/dev/null
    cmake --build "$build/demo" -j "$jobs" --target eagle-demo
  }
  eagle_stage "building eagle-demo" build_demo
  eagle_stage "running eagle-demo" "$build/demo/perf/eagle-demo" "$@"
  exit 0
fi

eagle_stage "Kokkos 3.4.1 (OpenMP, debug with bounds checks), cached" kokkos debug >/dev/null
debug_kokkos=$(kokkos debug)
eagle_doing "finding Debian's Kokkos" "reinstall libtrilinos-kokkos-dev"
debian_kokkos=$(dirname "$(dpkg -L libtrilinos-kokkos-dev | grep '/cmake/Kokkos/KokkosConfig.cmake$')")

# flavour name -> the CMake argument that selects its Kokkos
declare -A kokkos_of=([openmp]="-DKokkos_ROOT=$openmp_kokkos" [debian-serial]="-DKokkos_DIR=$debian_kokkos"
                      [openmp-asan]="-DKokkos_ROOT=$openmp_kokkos"
                      [openmp-boundscheck]="-DKokkos_ROOT=$debug_kokkos")

build_flavour() {
  local flavour=$1
  shift
  cmake -S "$root" -B "$build/$flavour" -DCMAKE_BUILD_TYPE=Release "${kokkos_of[$flavour]}" \
    -DCMAKE_INSTALL_PREFIX="$build/$flavour-install" "$@"
  cmake --build "$build/$flavour" -j "$jobs"
}

# Builds and runs tests/consumer against eagle: installed (find_package), installed for a code
# without MPI (CMake may not look for MPI at all), and as a subdirectory.
consumer_checks() {
  local flavour=$1 variant
  cmake --install "$build/$flavour"
  declare -A consumer_args=([installed]="-DCMAKE_PREFIX_PATH=$build/$flavour-install"
                            [installed-no-mpi]="-DCMAKE_PREFIX_PATH=$build/$flavour-install -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON"
                            [subdirectory]="-DEAGLE_CONSUMER_SOURCE=$root ${kokkos_of[$flavour]}")
  for variant in installed installed-no-mpi subdirectory; do
    # shellcheck disable=SC2086 # the arguments are words
    cmake -S "$root/tests/consumer" -B "$build/$flavour-consumer-$variant" -DCMAKE_BUILD_TYPE=Release \
      ${consumer_args[$variant]} -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror"
    cmake --build "$build/$flavour-consumer-$variant" -j "$jobs"
    (cd "$build/$flavour-consumer-$variant" && ctest --output-on-failure)
  done
}

run_tests() { (cd "$build/$1" && ctest --output-on-failure -j "$jobs"); }

for flavour in debian-serial openmp; do
  eagle_stage "$flavour: build" build_flavour "$flavour" -DEAGLE_WARNINGS_AS_ERRORS=ON
  eagle_stage "$flavour: consumers (installed, without MPI, subdirectory)" consumer_checks "$flavour"
  eagle_stage "$flavour: tests" run_tests "$flavour"
done

checked=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DEAGLE_WARNINGS_AS_ERRORS=ON -DEAGLE_ENABLE_PERF=OFF)
# The sanitizers run once, on the OpenMP build: its Serial instance runs the same eagle code as
# Debian's Serial-only Kokkos 3.4.1 (the same sources), so a second ASan build tested nothing new.
for flavour in openmp-asan openmp-boundscheck; do
  sanitize=()
  [[ $flavour == *-asan ]] && sanitize=(-DEAGLE_SANITIZE=address,undefined)
  eagle_stage "$flavour: build" build_flavour "$flavour" "${checked[@]}" "${sanitize[@]}"
  eagle_stage "$flavour: tests" run_tests "$flavour"
done

fuzz() {
  cmake -S "$root/tests/fuzz" -B "$build/fuzz" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "$build/fuzz" -j "$jobs"
  local target corpus
  for target in checkpoint_fuzz simulate_args_fuzz; do
    corpus="$build/fuzz/corpus-$target"
    mkdir -p "$corpus"
    if [[ $target == checkpoint_fuzz ]]; then python3 "$root/tests/fuzz/checkpoint_seed.py" "$corpus"; fi
    "$build/fuzz/$target" -max_total_time="${EAGLE_FUZZ_SECONDS:-60}" -seed=1 -print_final_stats=1 "$corpus"
  done
}
eagle_stage "fuzzing the checkpoint reader and eagle-simulate's command line" fuzz
