#!/usr/bin/env bash
# Packs a built tree's GPU check into one folder that runs where nothing else is: no compiler, no
# network, none of Debian's packages, maybe another Linux. The executables (stripped), every shared
# library they load but the GPU driver's (which must be the machine's own) in lib/, the C library
# and its loader apart in lib/glibc/ (run.sh uses them only where the machine's C library is too
# old), and run.sh; a manifest of each file's size, checksum and GPU code. Fails when the folder passes EAGLE_BUNDLE_LIMIT_MIB (48: the tree and the
# bundle travel to a lent GPU machine together, 64 MiB in all).
#   bash perf/gpu/make_bundle.sh BUILD_DIR BUNDLE_DIR DEVICE_TESTS
# DEVICE_TESTS: the device's test executable, e.g. eagle_tests_cuda (eagle_tests_openmp: the dry run).
source "$(dirname "${BASH_SOURCE[0]}")/../../cmake/setup/common.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# == 3 ]] || { echo "usage: $0 BUILD_DIR BUNDLE_DIR DEVICE_TESTS" >&2; exit 2; }
build=$1 bundle=$2 device_tests=$3
limit_mib=${EAGLE_BUNDLE_LIMIT_MIB:-48}

executables=("tests/$device_tests" tests/eagle_policy_tests perf/eagle-demo perf/eagle-simulate perf/eagle-bench-gpu)
eagle_doing "checking $build for the bundle's executables" "build them: bash cmake/setup/eagle.sh gpu-bundle"
for exe in "${executables[@]}"; do
  [[ -x $build/$exe ]] || { echo "eagle bundle: no $build/$exe; build it first" >&2; exit 1; }
done

rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/lib/glibc"
for exe in "${executables[@]}"; do
  cp "$build/$exe" "$bundle/bin/"
  strip "$bundle/bin/$(basename "$exe")"
done
cp "$here/run_bundle.sh" "$bundle/run.sh"

# Every library the executables load, as ldd resolves them here; the driver's stay behind.
eagle_doing "collecting the shared libraries" "see ldd's output for the executables in $bundle/bin"
ldd "$bundle"/bin/* | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}' | sort -u |
  while read -r library; do
    case $(basename "$library") in
      libcuda.so* | libnvidia-*) ;;
      ld-linux* | libc.so* | libm.so* | libpthread.so* | libdl.so* | librt.so*) cp -L "$library" "$bundle/lib/glibc/" ;;
      *) cp -L "$library" "$bundle/lib/" ;;
    esac
  done
[[ -n $(ls "$bundle"/lib/glibc/ld-linux-* 2>/dev/null) ]] || { echo "eagle bundle: ldd named no loader" >&2; exit 1; }

bytes=$(du -sb "$bundle" | cut -f1)
{
  echo "eagle GPU bundle: $(git -C "$here" describe --always --dirty 2>/dev/null || echo "revision unknown")," \
    "packed $(date -u +%Y-%m-%dT%H:%MZ) from $build"
  echo "run it: bash run.sh OUT_DIR [--budget SECONDS] (no build, no network; bash run.sh --help)"
  echo
  echo "GPU code:"
  (cd "$bundle" && python3 "$here/gpu_code.py" bin/*) | sed 's/^/  /'
  echo
  echo "files (bytes, sha256):"
  (cd "$bundle" && find . -type f ! -name MANIFEST.txt | sort | while read -r f; do
    printf '  %-40s %10d  %s\n' "${f#./}" "$(stat -c %s "$f")" "$(sha256sum "$f" | cut -c1-64)"
  done)
  echo
  awk -v b="$bytes" -v l="$limit_mib" 'BEGIN { printf "total: %d bytes (%.1f MiB; limit %d MiB)\n", b, b / 1048576, l }'
} >"$bundle/MANIFEST.txt"
cat "$bundle/MANIFEST.txt"
if ((bytes > limit_mib * 1048576)); then
  echo "eagle bundle: $bundle is $((bytes / 1048576)) MiB, over the $limit_mib MiB limit" >&2
  exit 1
fi
