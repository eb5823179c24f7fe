#!/usr/bin/env bash
# Installs the Debian packages eagle builds with: `demo` only what the demo needs, `test` (the
# default) everything the tests, benchmarks and tools use. Idempotent: nothing is fetched when all
# are installed. Every package is named here: a bare Debian 12 (debootstrap minbase) has none.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

set_name=${1:-test}
demo_packages=(
  cmake g++ make pkg-config       # the build
  libhwloc-dev                    # cache sizes for the host tile
  libbenchmark-dev                # perf/ configures its benchmarks beside the demo
  libcli11-dev nlohmann-json3-dev # and eagle-simulate: its command line and its JSON
)
test_packages=(
  "${demo_packages[@]}"
  hwloc-nox                       # lstopo, to compare hwloc's caches by hand
  googletest libgtest-dev
  libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev
  liblapack-dev libblas-dev       # Debian's Kokkos Kernels CMake config names liblapack.so and libblas.so
  libboost-dev                    # Boost.Odeint, the outside peer in eagle-simulate
  clang libclang-rt-14-dev        # libFuzzer for the fuzz targets
  python3 python3-jsonschema      # checks eagle-simulate's JSON against its schema
  libopenmpi-dev openmpi-bin      # eagle/mpi.hpp and its tests under mpirun (optional for users)
  patch                           # adapts Kokkos 3.4.1 to CUDA 13 for the CUDA flavour
  doxygen                         # the API reference (the `docs` target)
  hipcc libamdhip64-dev           # the HIP flavour: Debian's ROCm 5.2 compiler and runtime
  xz-utils                        # unpacks the Kokkos 4.6.01 tarballs (.tar.xz)
)
case $set_name in
  demo) packages=("${demo_packages[@]}") ;;
  test) packages=("${test_packages[@]}") ;;
  *) echo "usage: $0 [demo|test]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0
[[ $(id -u) == 0 ]] || { echo "eagle setup: missing Debian packages (${missing[*]}); run as root or install them first" >&2; exit 1; }
echo "eagle setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
eagle_doing "updating apt's package lists" "check that this machine reaches the Debian mirror named in /etc/apt"
apt-get update -qq >&2
eagle_doing "installing ${missing[*]}" "check the apt output above; 'apt-get install ${missing[*]}' by hand shows the details"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
