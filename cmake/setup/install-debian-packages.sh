#!/usr/bin/env bash
# Installs every Debian package eagle builds and tests with. Idempotent: apt-get skips what is there.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libhwloc-dev hwloc-nox
  googletest libgtest-dev libbenchmark-dev
  libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev
  libboost-dev                    # Boost.Odeint, the outside peer in eagle-simulate
  clang libclang-rt-14-dev        # libFuzzer for the fuzz targets
  python3 python3-jsonschema      # checks eagle-simulate's JSON against its schema
  libopenmpi-dev openmpi-bin      # eagle/mpi.hpp and its tests under mpirun (optional for users)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "eagle setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
