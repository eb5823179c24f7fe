#!/usr/bin/env bash
# The README's two commands, on a fresh Debian 12 machine as root:
#   bash cmake/setup/eagle.sh demo   installs what the demo needs, builds Kokkos (OpenMP) once and
#                                    only the demo, and runs it; extra arguments go to eagle-demo
#   bash cmake/setup/eagle.sh test   installs everything; builds, tests and builds a consumer project
#                                    against (installed, and as a subdirectory) each flavour:
#                                    Debian's prebuilt Kokkos 3.4.1 (Serial, no perf suite); Kokkos
#                                    4.6.01 (OpenMP + Serial, C++20) from its release tarballs, or
#                                    Kokkos 3.4.1 with OpenMP where they are absent; the GPU bundle's
#                                    dry run on that flavour; the API reference; the CUDA and HIP
#                                    flavours (below); then the tests again under ASan+UBSan (OpenMP)
#                                    and on a Kokkos debug build with View bounds checks (Serial), both
#                                    Kokkos 3.4.1; then the fuzzers. Ends with a table of each stage's
#                                    minutes.
# and one for the CUDA flavour alone (also part of `test`):
#   bash cmake/setup/eagle.sh cuda   builds Kokkos 3.4.1 with CUDA (sm_80) + OpenMP + Serial and the
#                                    whole project with its nvcc_wrapper, installs eagle into
#                                    build/cuda-install and builds the consumer against it. Runs every
#                                    test where a GPU is present; without one, only the tests that
#                                    never initialise Kokkos, and says so. Needs nvcc (CUDACXX, PATH or
#                                    /usr/local/cuda/bin); `test` skips the flavour with a line when
#                                    there is none, unless EAGLE_REQUIRE_CUDA=1 (CI) makes that fatal.
# and one for AMD GPUs (also part of `test`, without the benchmarks there: the CUDA flavour builds
# them through a device compiler, and CI's time is counted):
#   bash cmake/setup/eagle.sh hip    builds Kokkos 4.6.01 with HIP (gfx90a, EAGLE_HIP_ARCH=GFX940
#                                    for MI300) + Serial with Debian's hipcc, and the whole project
#                                    with hipcc; installs it into build/hip-install and builds the
#                                    consumer against it; runs every test where an AMD GPU is
#                                    (/dev/kfd), else only those that never initialise Kokkos, and
#                                    says so.
# and one that packs the GPU check for a machine with an NVIDIA GPU and nothing else (perf/gpu/):
#   bash cmake/setup/eagle.sh gpu-bundle   builds Kokkos 3.4.1 with CUDA for Hopper and Ampere
#                                    (native sm_90 and sm_80 code) and with it the executables the
#                                    check runs (no MPI, no -march=native), then packs them, the
#                                    shared libraries they load and the run script into
#                                    build/gpu-bundle (at most 48 MiB, with a manifest). There:
#                                    bash build/gpu-bundle/run.sh OUT_DIR [--budget SECONDS]
#                                    (`test` packs and runs the same for OpenMP: the dry run)
# Kokkos 4 comes from EAGLE_KOKKOS4 (default ../shared/third-party beside the repository): a folder
# holding the Kokkos 4.6.01 tarballs (the Kokkos 4.6 and HIP flavours are built from them), or the
# prefix of your own Kokkos 4 install (the Kokkos 4 flavour builds against it; HIP needs the
# tarballs). EAGLE_REQUIRE_KOKKOS4=1 (CI) makes the tarballs' absence fatal.
# EAGLE_BUILD_DIR (default <repo>/build) and EAGLE_CACHE (default ~/.cache/eagle) move the outputs.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${EAGLE_BUILD_DIR:-$root/build}
jobs=$(nproc)
command=${1:-}
case $command in
  demo | test | cuda | hip | gpu-bundle) shift ;;
  *) echo "usage: $0 demo [eagle-demo options]|test|cuda|hip|gpu-bundle" >&2; exit 2 ;;
esac
trap eagle_stage_table EXIT

packages=$command
[[ $command == cuda || $command == hip || $command == gpu-bundle ]] && packages="test"
eagle_stage "installing Debian packages ($packages)" bash "$root/cmake/setup/install-debian-packages.sh" "$packages"
# The Kokkos builds are cached: the stage builds once, the second call only prints the prefix.
kokkos() { bash "$root/cmake/setup/build-kokkos.sh" "$@"; }
if [[ $command == demo || $command == test ]]; then
  eagle_stage "Kokkos 3.4.1 (OpenMP) from Debian's sources, cached" kokkos release >/dev/null
  openmp_kokkos=$(kokkos release)
fi

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

# flavour name -> the CMake argument that selects its Kokkos, and its compiler and C++ standard where
# not the defaults
declare -A kokkos_of=() toolchain_of=()
if [[ $command == test ]]; then
  eagle_stage "Kokkos 3.4.1 (OpenMP, debug with bounds checks), cached" kokkos debug >/dev/null
  debug_kokkos=$(kokkos debug)
  eagle_doing "finding Debian's Kokkos" "reinstall libtrilinos-kokkos-dev"
  debian_kokkos=$(dirname "$(dpkg -L libtrilinos-kokkos-dev | grep '/cmake/Kokkos/KokkosConfig.cmake$')")
  kokkos_of=([openmp]="-DKokkos_ROOT=$openmp_kokkos" [debian-serial]="-DKokkos_DIR=$debian_kokkos"
             [openmp-asan]="-DKokkos_ROOT=$openmp_kokkos" [openmp-boundscheck]="-DKokkos_ROOT=$debug_kokkos")
  # Today's Kokkos where its sources are; Kokkos 3.4.1's OpenMP release build stands in without them
  # (the sanitizer flavour builds against 3.4.1's OpenMP in either case).
  main_flavour=openmp
  kokkos4=$(eagle_kokkos4)
  kokkos4_tarballs=0
  how_to_enable="set EAGLE_KOKKOS4 to a folder holding kokkos-4.6.01.tar.xz, kokkos-kernels-4.6.01.tar.xz and SHA256SUMS"
  if [[ -f $kokkos4/SHA256SUMS ]]; then
    eagle_stage "Kokkos 4.6.01 (OpenMP, C++20) from its release tarballs, cached" kokkos kokkos4 >/dev/null
    kokkos_of[kokkos4]="-DKokkos_ROOT=$(kokkos kokkos4)"
    kokkos4_tarballs=1
  elif [[ ${EAGLE_REQUIRE_KOKKOS4:-0} == 1 ]]; then
    echo "eagle setup: no Kokkos 4.6.01 tarballs in $kokkos4; $how_to_enable" >&2
    exit 1
  elif eagle_is_kokkos4_install "$kokkos4"; then
    kokkos_of[kokkos4]="-DKokkos_ROOT=$kokkos4"
    echo "eagle: the Kokkos 4 flavour builds against your install in $kokkos4; the HIP flavour is skipped (it builds Kokkos from the tarballs: $how_to_enable)" >&2
  else
    echo "eagle: no Kokkos 4 in $kokkos4: the Kokkos 4.6 and HIP flavours are skipped and the OpenMP flavour uses Kokkos 3.4.1; $how_to_enable, or to your own Kokkos 4 install's prefix" >&2
  fi
  if [[ -n ${kokkos_of[kokkos4]:-} ]]; then
    toolchain_of[kokkos4]="-DCMAKE_CXX_STANDARD=20"
    main_flavour=kokkos4
  fi
fi

build_flavour() {
  local flavour=$1
  shift
  # shellcheck disable=SC2086 # the arguments are words
  cmake -S "$root" -B "$build/$flavour" -DCMAKE_BUILD_TYPE=Release "${kokkos_of[$flavour]}" ${toolchain_of[$flavour]:-} \
    -DCMAKE_INSTALL_PREFIX="$build/$flavour-install" "$@"
  cmake --build "$build/$flavour" -j "$jobs"
}

# Builds and runs tests/consumer against eagle: installed (find_package), and on the main flavour
# also installed for a code without MPI (CMake may not look for MPI at all) and as a subdirectory.
consumer_checks() {
  local flavour=$1 variant variants=(installed)
  [[ $flavour == "${main_flavour:-}" ]] && variants+=(installed-no-mpi subdirectory)
  cmake --install "$build/$flavour"
  local toolchain=${toolchain_of[$flavour]:-}
  declare -A consumer_args=([installed]="-DCMAKE_PREFIX_PATH=$build/$flavour-install $toolchain"
                            [installed-no-mpi]="-DCMAKE_PREFIX_PATH=$build/$flavour-install -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON $toolchain"
                            [subdirectory]="-DEAGLE_CONSUMER_SOURCE=$root ${kokkos_of[$flavour]} $toolchain")
  for variant in "${variants[@]}"; do
    # shellcheck disable=SC2086 # the arguments are words
    cmake -S "$root/tests/consumer" -B "$build/$flavour-consumer-$variant" -DCMAKE_BUILD_TYPE=Release \
      ${consumer_args[$variant]} -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror"
    cmake --build "$build/$flavour-consumer-$variant" -j "$jobs"
    [[ $flavour == cuda || $flavour == hip ]] && [[ -z ${gpu_of[$flavour]} ]] && continue  # running needs the GPU
    (cd "$build/$flavour-consumer-$variant" && ctest --output-on-failure)
  done
}

# run_tests FLAVOUR [ctest options]
run_tests() {
  local flavour=$1
  shift
  (cd "$build/$flavour" && ctest --output-on-failure -j "$jobs" "$@")
}

# The GPU each device flavour can run on here (its name), or nothing.
declare -A gpu_of=([cuda]=$( (nvidia-smi -L 2>/dev/null || true) | head -n1) [hip]="")
[[ -e /dev/kfd ]] && gpu_of[hip]="an AMD GPU (/dev/kfd)"

# Runs every test of a device flavour where its GPU is; without one, only the "pure" tests (no
# Kokkos initialisation: a device-enabled Kokkos asks the driver for devices first), and says so.
device_tests() {
  local flavour=$1 gpu=${gpu_of[$1]} built
  if [[ -n $gpu ]]; then
    eagle_stage "$flavour: tests on $gpu" run_tests "$flavour"
  else
    built=$(cd "$build/$flavour" && ctest -N -LE pure | awk '/Total Tests:/ {print $3}')
    eagle_stage "$flavour: tests that need no GPU" run_tests "$flavour" -L pure
    echo "eagle: no GPU here: the $flavour flavour's other $built tests and its consumers were built and linked, not run" >&2
  fi
}

# The CUDA flavour: the same sources through nvcc. Without a GPU only the "pure" tests (no Kokkos
# initialisation) can run: Kokkos::initialize needs a CUDA device once CUDA is enabled.
cuda_flavour() {
  eagle_stage "Kokkos 3.4.1 (CUDA sm_80 + OpenMP) from Debian's sources, cached" kokkos cuda >/dev/null
  local cuda_kokkos
  cuda_kokkos=$(kokkos cuda)
  PATH=$(dirname "$(eagle_find_nvcc)"):$PATH  # nvcc_wrapper calls nvcc by name
  export PATH
  kokkos_of[cuda]="-DKokkos_ROOT=$cuda_kokkos"
  toolchain_of[cuda]="-DCMAKE_CXX_COMPILER=$cuda_kokkos/bin/nvcc_wrapper"
  # The CUDA suite only: the host suites through nvcc are the other flavours' host code again; no
  # header check: the same headers as the host flavours', each alone through nvcc (5 minutes).
  eagle_stage "cuda: build" build_flavour cuda -DEAGLE_WARNINGS_AS_ERRORS=ON -DEAGLE_TEST_BACKENDS=CUDA \
    -DEAGLE_TEST_HEADERS=OFF
  eagle_stage "cuda: consumer (installed)" consumer_checks cuda
  device_tests cuda
}

# The HIP flavour: the same sources through hipcc, against Kokkos 4.6.01 (3.4.1 predates ROCm 5).
# Extra CMake arguments go to the project's configure.
hip_flavour() {
  eagle_stage "Kokkos 4.6.01 (HIP ${EAGLE_HIP_ARCH:-GFX90A} + Serial) from its release tarballs, cached" kokkos hip >/dev/null
  kokkos_of[hip]="-DKokkos_ROOT=$(kokkos hip)"
  toolchain_of[hip]="-DCMAKE_CXX_COMPILER=hipcc"
  eagle_stage "hip: build" build_flavour hip -DEAGLE_WARNINGS_AS_ERRORS=ON -DEAGLE_TEST_BACKENDS=HIP \
    -DEAGLE_TEST_HEADERS=OFF "$@"  # no header check, as for CUDA
  eagle_stage "hip: consumer (installed)" consumer_checks hip
  device_tests hip
}

# Whether to build the CUDA flavour: yes where nvcc is; without it, a line, and a failure when the
# flavour was asked for (`cuda`, or EAGLE_REQUIRE_CUDA=1).
cuda_wanted() {
  [[ -n $(eagle_find_nvcc) ]] && return 0
  local why="no nvcc (looked at CUDACXX, PATH, /usr/local/cuda/bin)"
  if [[ $command == cuda || $command == gpu-bundle || ${EAGLE_REQUIRE_CUDA:-0} == 1 ]]; then
    echo "eagle setup: $why; install the CUDA toolkit or set CUDACXX" >&2
    exit 1
  fi
  echo "eagle: $why: the CUDA flavour is not built" >&2
  return 1
}

# What the GPU check runs: the suites (the device's and the pure one), the demo, eagle-simulate and
# the GPU benchmark; packed with perf/gpu/make_bundle.sh.
bundle_targets=(eagle_policy_tests eagle-demo eagle-simulate eagle-bench-gpu)

# The GPU bundle: its own Kokkos (sm_90 beside sm_80), only the targets above, packed.
gpu_bundle() {
  eagle_stage "Kokkos 3.4.1 (CUDA sm_80 + sm_90 + OpenMP) from Debian's sources, cached" kokkos cuda-hopper >/dev/null
  local prefix dir=$build/gpu-bundle-cuda
  prefix=$(kokkos cuda-hopper)
  PATH=$(dirname "$(eagle_find_nvcc)"):$PATH
  NVCC_APPEND_FLAGS=$(eagle_hopper_nvcc_flags)  # nvcc_wrapper passes one architecture: Kokkos' sm_80
  export PATH NVCC_APPEND_FLAGS
  build_bundle() {
    cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" \
      -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" -DEAGLE_TEST_BACKENDS=CUDA -DEAGLE_ENABLE_MPI=OFF \
      -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DEAGLE_PERF_NATIVE=OFF -DEAGLE_ENABLE_EXAMPLES=OFF -DEAGLE_WARNINGS_AS_ERRORS=ON
    cmake --build "$dir" -j "$jobs" --target eagle_tests_cuda "${bundle_targets[@]}"
  }
  eagle_stage "gpu-bundle: build (CUDA sm_80 + sm_90)" build_bundle
  eagle_stage "gpu-bundle: packing $build/gpu-bundle" bash "$root/perf/gpu/make_bundle.sh" "$dir" "$build/gpu-bundle" eagle_tests_cuda
}

if [[ $command == cuda ]]; then
  cuda_wanted
  cuda_flavour
  exit 0
fi
if [[ $command == gpu-bundle ]]; then
  cuda_wanted
  gpu_bundle
  exit 0
fi
if [[ $command == hip ]]; then
  hip_flavour
  exit 0
fi

# Debian's prebuilt Kokkos checks the library, its tests and the consumer; the perf suite is built
# by the main flavour, and against Kokkos 3.4.1 by the CUDA flavour.
declare -A flavour_args=([debian-serial]=-DEAGLE_ENABLE_PERF=OFF)
for flavour in debian-serial "$main_flavour"; do
  # shellcheck disable=SC2086 # the arguments are words
  eagle_stage "$flavour: build" build_flavour "$flavour" -DEAGLE_WARNINGS_AS_ERRORS=ON ${flavour_args[$flavour]:-}
  consumers="consumer (installed)"
  [[ $flavour == "$main_flavour" ]] && consumers="consumers (installed, without MPI, subdirectory)"
  eagle_stage "$flavour: $consumers" consumer_checks "$flavour"
  eagle_stage "$flavour: tests" run_tests "$flavour"
done
# The GPU bundle's dry run: packed from the main flavour and run on its host backend, so that the
# day a GPU is lent only the device is new (the run script's parts, its budget, its outputs). Once
# with a budget for every part (without the checkpoint tests' kill chains: the suite ran above), once
# with none left and the bundle's own C library: every part skipped, by name.
bundle_dry_run() {
  local bundle=$build/gpu-bundle-$main_flavour out=$build/gpu-bundle-$main_flavour-run
  bash "$root/perf/gpu/make_bundle.sh" "$build/$main_flavour" "$bundle" eagle_tests_openmp
  rm -rf "$out" "$out-spent"
  OMP_NUM_THREADS=2 OMP_PROC_BIND=false bash "$bundle/run.sh" "$out" --budget 240 --simulate-seconds 10 \
    --bench-sizes 20000 --tests-filter '-Checkpoint.*'
  python3 "$root/tests/gpu/check_bundle_run.py" "$out"
  EAGLE_BUNDLE_OWN_LOADER=1 bash "$bundle/run.sh" "$out-spent" --budget 4
  python3 "$root/tests/gpu/check_bundle_run.py" --all-skipped "$out-spent"
}
eagle_stage "GPU bundle: packed from $main_flavour and run on its host (the dry run)" bundle_dry_run
eagle_stage "API reference (doxygen; an undocumented public entity fails)" \
  cmake --build "$build/$main_flavour" --target docs

if cuda_wanted; then cuda_flavour; fi
# The HIP flavour's Kokkos is built from the tarballs; the line above said so where they are absent.
if [[ $kokkos4_tarballs == 1 ]]; then hip_flavour -DEAGLE_ENABLE_PERF=OFF; fi

# -O1 -g1: what ASan's authors advise (stacks with lines), and half the compile time of -O2 -g.
# The checked flavours run eagle's machinery once each, on one backend (the host backends share
# every line of eagle's code): ASan+UBSan on OpenMP (1, 2 and 3 threads split the work differently),
# bounds checks on Serial; without kernels/' suites and the examples, which exercise the models' and
# steppers' arithmetic, not the machinery (at -O1 a flattened multi-stage step compiles for 6 to 8
# minutes a unit), and without the header check (the same headers as every flavour's).
checked=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
         -DEAGLE_WARNINGS_AS_ERRORS=ON -DEAGLE_ENABLE_PERF=OFF -DEAGLE_TEST_KERNELS=OFF -DEAGLE_TEST_HEADERS=OFF
         -DEAGLE_ENABLE_EXAMPLES=OFF)
# shellcheck disable=SC2054 # one CMake argument: the comma separates the sanitizers
eagle_stage "openmp-asan: build" build_flavour openmp-asan "${checked[@]}" -DEAGLE_SANITIZE=address,undefined \
  -DEAGLE_TEST_BACKENDS=OPENMP
eagle_stage "openmp-asan: tests" run_tests openmp-asan
eagle_stage "openmp-boundscheck: build" build_flavour openmp-boundscheck "${checked[@]}" -DEAGLE_TEST_BACKENDS=SERIAL
eagle_stage "openmp-boundscheck: tests" run_tests openmp-boundscheck

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
