#!/usr/bin/env bash
# Builds Kokkos + Kokkos Kernels and installs them under a cache folder, so reruns are free.
# Kokkos 3.4.1 comes from Debian's `trilinos` source package (/etc/apt is never touched: the deb-src
# line lives in a private sources list that points at the system's own mirror):
#   release  Serial + OpenMP (the default)
#   debug    the same with Kokkos' debug mode and View bounds checks
#   cuda     Serial + OpenMP + CUDA for Ampere (sm_80; its PTX also loads on Hopper), compiled with
#            Kokkos' nvcc_wrapper after kokkos-3.4.1-cuda13.patch (beside this script) adapts 3.4.1
#            to CUDA 13. nvcc comes from CUDACXX, PATH or /usr/local/cuda/bin.
#   cuda-hopper  the same, with Hopper's native code (sm_90) beside Ampere's in every object: the GPU
#            bundle's Kokkos (3.4.1 has no Hopper flag and nvcc_wrapper takes one architecture, so
#            nvcc gets the second through NVCC_APPEND_FLAGS)
# Kokkos 4.6.01 comes from the upstream release tarballs in EAGLE_KOKKOS4 (default: the
# folder third-party/ in ../shared beside the repository), their checksums checked first:
#   kokkos4  Serial + OpenMP, C++20 (Kokkos 5's floor), deprecated Kokkos 4 code off
#   hip      Serial + HIP for AMD's MI200 class (gfx90a; EAGLE_HIP_ARCH=GFX940 for MI300), compiled
#            with Debian's hipcc; rocThrust is not packaged, so Kokkos is told not to look for it
# Prints nothing but the install prefix on stdout (progress goes to stderr).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
variant=${1:-release}
backends=(-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON)
compiler=()
case $variant in
  release) name=openmp kokkos_debug=(-DCMAKE_BUILD_TYPE=Release) ;;
  debug) name=openmp-debug kokkos_debug=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DKokkos_ENABLE_DEBUG=ON -DKokkos_ENABLE_DEBUG_BOUNDS_CHECK=ON) ;;
  cuda)
    name=cuda kokkos_debug=(-DCMAKE_BUILD_TYPE=Release)
    backends+=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_AMPERE80=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON)
    ;;
  cuda-hopper)
    name=cuda-sm80-sm90 kokkos_debug=(-DCMAKE_BUILD_TYPE=Release)
    backends+=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_AMPERE80=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON)
    export NVCC_APPEND_FLAGS=$(eagle_hopper_nvcc_flags)
    ;;
  kokkos4)
    name=openmp kokkos_debug=(-DCMAKE_BUILD_TYPE=Release)
    backends+=(-DKokkos_ENABLE_DEPRECATED_CODE_4=OFF)
    ;;
  hip)
    arch=${EAGLE_HIP_ARCH:-GFX90A}
    name=hip-${arch,,} kokkos_debug=(-DCMAKE_BUILD_TYPE=Release)
    backends=(-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_HIP=ON "-DKokkos_ARCH_AMD_$arch=ON"
              -DKokkos_ENABLE_ROCTHRUST=OFF -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF)
    eagle_doing "finding hipcc" "install Debian's hipcc and libamdhip64-dev"
    command -v hipcc >/dev/null || { echo "eagle setup: no hipcc; apt-get install hipcc libamdhip64-dev" >&2; exit 1; }
    compiler=(-DCMAKE_CXX_COMPILER=hipcc)
    ;;
  *) echo "usage: $0 [release|debug|cuda|cuda-hopper|kokkos4|hip]" >&2; exit 2 ;;
esac
cache=${EAGLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/eagle}
version=3.4.1 standard=17
[[ $variant == kokkos4 ]] && version=4.6.01 standard=20
[[ $variant == hip ]] && version=4.6.01
prefix=$cache/kokkos-$version-$name
stamp=$prefix/.eagle-complete
if [[ -f $stamp ]]; then echo "$prefix"; exit 0; fi

log() { echo "eagle setup: $*" >&2; }
jobs=$(nproc)

# Kokkos, then Kokkos Kernels compiled by the installed Kokkos' compiler (as users do), into $prefix.
build_and_install() {
  local kokkos_src=$1 kernels_src=$2
  eagle_doing "building Kokkos $version into $prefix" "see the compiler output above; delete $cache to start over"
  log "building Kokkos $version ($variant) into $prefix"
  rm -rf "$cache/build-kokkos" "$cache/build-kokkos-kernels" "$prefix"
  cmake -S "$kokkos_src" -B "$cache/build-kokkos" "${kokkos_debug[@]}" "${compiler[@]}" \
    -DCMAKE_CXX_STANDARD=$standard -DCMAKE_INSTALL_PREFIX="$prefix" "${backends[@]}" >&2
  cmake --build "$cache/build-kokkos" -j "$jobs" >&2
  cmake --install "$cache/build-kokkos" >&2
  [[ $variant == cuda* ]] && compiler=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper")

  eagle_doing "building Kokkos Kernels $version into $prefix" "see the compiler output above; delete $cache to start over"
  log "building Kokkos Kernels $version (no explicit instantiation) into $prefix"
  cmake -S "$kernels_src" -B "$cache/build-kokkos-kernels" "${kokkos_debug[@]}" "${compiler[@]}" \
    -DCMAKE_CXX_STANDARD=$standard -DCMAKE_INSTALL_PREFIX="$prefix" -DKokkos_ROOT="$prefix" \
    -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_OFFSET_INT=OFF \
    -DKokkosKernels_INST_OFFSET_SIZE_T=OFF -DKokkosKernels_INST_ORDINAL_INT=OFF \
    -DKokkosKernels_INST_LAYOUTLEFT=OFF -DKokkosKernels_ENABLE_TESTS=OFF >&2
  cmake --build "$cache/build-kokkos-kernels" -j "$jobs" >&2
  cmake --install "$cache/build-kokkos-kernels" >&2
  rm -rf "$cache/build-kokkos" "$cache/build-kokkos-kernels"
  touch "$stamp"
  echo "$prefix"
}

if [[ $version == 4.* ]]; then
  sources=$(eagle_kokkos4)
  eagle_doing "checking the Kokkos $version tarballs in $sources" \
    "set EAGLE_KOKKOS4 to a folder holding kokkos-$version.tar.xz, kokkos-kernels-$version.tar.xz and their SHA256SUMS"
  [[ -f $sources/SHA256SUMS ]] || { echo "eagle setup: no $sources/SHA256SUMS; set EAGLE_KOKKOS4 to the folder holding the Kokkos $version tarballs" >&2; exit 1; }
  (cd "$sources" && grep -E " (kokkos|kokkos-kernels)-$version\.tar\.xz\$" SHA256SUMS | sha256sum --quiet -c -) >&2
  src_dir=$cache/src-$version
  eagle_doing "extracting the Kokkos $version tarballs into $src_dir" "delete $src_dir and rerun"
  rm -rf "$src_dir"
  mkdir -p "$src_dir/kokkos" "$src_dir/kokkos-kernels"
  tar xf "$sources/kokkos-$version.tar.xz" -C "$src_dir/kokkos" --strip-components=1
  tar xf "$sources/kokkos-kernels-$version.tar.xz" -C "$src_dir/kokkos-kernels" --strip-components=1
  build_and_install "$src_dir/kokkos" "$src_dir/kokkos-kernels"
  exit 0
fi

apt_dir=$cache/apt
src_dir=$cache/src
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$src_dir"

eagle_doing "reading the Debian mirror from /etc/apt" "add a Debian mirror to /etc/apt/sources.list or sources.list.d/*.sources"
uri=$(eagle_debian_mirror)
[[ -n $uri ]] || { echo "eagle setup: no Debian mirror in /etc/apt/sources.list nor /etc/apt/sources.list.d; add one" >&2; exit 1; }
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri bookworm main" > "$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=-"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache")

tarball=$(ls "$apt_dir"/trilinos_*.orig.tar.* 2>/dev/null | head -n1 || true)
if [[ -z $tarball ]]; then
  log "downloading Debian's trilinos source package from $uri"
  eagle_doing "downloading Debian's trilinos source package from $uri" "check that this machine reaches $uri (bookworm's deb-src)"
  apt-get "${apt_opts[@]}" -qq update >&2
  (cd "$apt_dir" && apt-get "${apt_opts[@]}" -qq source --download-only trilinos >&2)
  tarball=$(ls "$apt_dir"/trilinos_*.orig.tar.* | head -n1)
fi

if [[ ! -d $src_dir/kokkos || ! -d $src_dir/kokkos-kernels ]]; then
  eagle_doing "extracting Kokkos from $tarball" "delete $apt_dir and rerun to download it again"
  log "extracting packages/kokkos and packages/kokkos-kernels"
  rm -rf "${src_dir:?}"/*
  tar xf "$tarball" -C "$src_dir" --strip-components=2 --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
fi

# The CUDA build compiles a patched copy of the sources; the host builds use them as shipped.
kokkos_src=$src_dir/kokkos
if [[ $variant == cuda* ]]; then
  eagle_doing "finding nvcc" "install the CUDA toolkit, or point CUDACXX at its nvcc"
  nvcc=$(eagle_find_nvcc)
  [[ -n $nvcc ]] || { echo "eagle setup: no nvcc (looked at CUDACXX, PATH, /usr/local/cuda/bin); install the CUDA toolkit or set CUDACXX" >&2; exit 1; }
  PATH=$(dirname "$nvcc"):$PATH
  export PATH
  eagle_doing "patching Kokkos 3.4.1 for CUDA 13" "delete $src_dir/kokkos-cuda and rerun"
  if [[ ! -f $src_dir/kokkos-cuda/.eagle-patched ]]; then
    rm -rf "$src_dir/kokkos-cuda"
    cp -r "$src_dir/kokkos" "$src_dir/kokkos-cuda"
    patch -d "$src_dir/kokkos-cuda" -p1 --quiet < "$here/kokkos-3.4.1-cuda13.patch"
    touch "$src_dir/kokkos-cuda/.eagle-patched"
  fi
  kokkos_src=$src_dir/kokkos-cuda
  compiler=(-DCMAKE_CXX_COMPILER="$kokkos_src/bin/nvcc_wrapper")
fi

build_and_install "$kokkos_src" "$src_dir/kokkos-kernels"
