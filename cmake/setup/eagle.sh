#!/usr/bin/env bash
# The README's two commands, on a fresh Debian 12 machine as root:
#   bash cmake/setup/eagle.sh demo   installs what is missing, builds, runs the demo (OpenMP Kokkos)
#   bash cmake/setup/eagle.sh test   installs what is missing, builds and tests both Kokkos flavours
#                                    (Debian's prebuilt Serial, and the OpenMP build) and builds a
#                                    consumer project against each, installed and as a subdirectory;
#                                    then the tests again under ASan+UBSan on both flavours and on a
#                                    Kokkos debug build with View bounds checks
# EAGLE_BUILD_DIR (default <repo>/build) and EAGLE_CACHE (default ~/.cache/eagle) move the outputs.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${EAGLE_BUILD_DIR:-$root/build}
jobs=$(nproc)
command=${1:-}
case $command in
  demo | test) ;;
  *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac

bash "$root/cmake/setup/install-debian-packages.sh"
openmp_kokkos=$(bash "$root/cmake/setup/build-kokkos-openmp.sh")
[[ $command == test ]] && debug_kokkos=$(bash "$root/cmake/setup/build-kokkos-openmp.sh" debug)
debian_kokkos=$(dirname "$(dpkg -L libtrilinos-kokkos-dev | grep '/cmake/Kokkos/KokkosConfig.cmake$')")

# flavour name -> the CMake argument that selects its Kokkos
declare -A kokkos_of=([openmp]="-DKokkos_ROOT=$openmp_kokkos" [debian-serial]="-DKokkos_DIR=$debian_kokkos"
                      [openmp-asan]="-DKokkos_ROOT=$openmp_kokkos" [debian-serial-asan]="-DKokkos_DIR=$debian_kokkos"
                      [openmp-boundscheck]="-DKokkos_ROOT=${debug_kokkos:-}")

build_flavour() {
  local flavour=$1
  shift
  cmake -S "$root" -B "$build/$flavour" -DCMAKE_BUILD_TYPE=Release "${kokkos_of[$flavour]}" \
    -DCMAKE_INSTALL_PREFIX="$build/$flavour-install" "$@"
  cmake --build "$build/$flavour" -j "$jobs"
}

# Builds and runs tests/consumer against eagle: installed (find_package), then as a subdirectory.
consumer_checks() {
  local flavour=$1
  cmake --install "$build/$flavour"
  cmake -S "$root/tests/consumer" -B "$build/$flavour-consumer-installed" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$build/$flavour-install" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror"
  cmake --build "$build/$flavour-consumer-installed" -j "$jobs"
  "$build/$flavour-consumer-installed/eagle-consumer"
  cmake -S "$root/tests/consumer" -B "$build/$flavour-consumer-subdirectory" -DCMAKE_BUILD_TYPE=Release \
    -DEAGLE_CONSUMER_SOURCE="$root" "${kokkos_of[$flavour]}" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror"
  cmake --build "$build/$flavour-consumer-subdirectory" -j "$jobs"
  "$build/$flavour-consumer-subdirectory/eagle-consumer"
}

if [[ $command == demo ]]; then
  build_flavour openmp
  OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads} "$build/openmp/perf/eagle-demo"
  exit 0
fi

for flavour in debian-serial openmp; do
  echo "=== eagle: building and testing the $flavour flavour"
  build_flavour "$flavour" -DEAGLE_WARNINGS_AS_ERRORS=ON
  consumer_checks "$flavour"
  (cd "$build/$flavour" && ctest --output-on-failure -j "$jobs")
done

checked=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DEAGLE_WARNINGS_AS_ERRORS=ON -DEAGLE_ENABLE_PERF=OFF)
for flavour in debian-serial-asan openmp-asan openmp-boundscheck; do
  echo "=== eagle: testing under $flavour"
  sanitize=()
  [[ $flavour == *-asan ]] && sanitize=(-DEAGLE_SANITIZE=address,undefined)
  build_flavour "$flavour" "${checked[@]}" "${sanitize[@]}"
  (cd "$build/$flavour" && ctest --output-on-failure -j "$jobs")
done

echo "=== eagle: fuzzing the checkpoint reader and eagle-simulate's command line (libFuzzer)"
cmake -S "$root/tests/fuzz" -B "$build/fuzz" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build/fuzz" -j "$jobs"
for target in checkpoint_fuzz simulate_args_fuzz; do
  corpus="$build/fuzz/corpus-$target"
  mkdir -p "$corpus"
  "$build/fuzz/$target" -max_total_time="${EAGLE_FUZZ_SECONDS:-60}" -seed=1 -print_final_stats=1 "$corpus"
done
