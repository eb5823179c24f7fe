#!/usr/bin/env bash
# eagle on an NVIDIA GPU, in one go (about 8 minutes on 16 cores): builds the CUDA flavour
# (`cmake/setup/eagle.sh cuda`: Kokkos 3.4.1 CUDA sm_80 + OpenMP + Serial, eagle with nvcc_wrapper),
# which runs every test on the GPU; then the demo on Kokkos::Cuda and a 30-second eagle-simulate;
# then a summary. Outputs go to EAGLE_GPU_OUT (default build/gpu-check): log, demo SVG/CSV,
# eagle-simulate's JSON/CSV/SVG, summary.txt.
#
# Needs what `eagle.sh cuda` needs: Debian 12's packages (installed by it as root where apt reaches a
# mirror), Debian's trilinos sources in EAGLE_CACHE (downloaded once), nvcc 13 (CUDACXX, PATH or
# /usr/local/cuda/bin), and a GPU that `nvidia-smi -L` lists.
source "$(dirname "${BASH_SOURCE[0]}")/../../cmake/setup/common.sh"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${EAGLE_BUILD_DIR:-$root/build}
out=${EAGLE_GPU_OUT:-$build/gpu-check}
mkdir -p "$out"

eagle_doing "looking for a GPU" "run this on a machine whose 'nvidia-smi -L' lists an NVIDIA GPU"
gpu=$(nvidia-smi -L | head -n1)
[[ -n $gpu ]] || { echo "eagle gpu check: nvidia-smi lists no GPU" >&2; exit 1; }

start=$SECONDS
eagle_doing "building and testing the CUDA flavour" "see $out/build.log"
bash "$root/cmake/setup/eagle.sh" cuda 2>&1 | tee "$out/build.log"
tests=$(grep -E "tests passed, [0-9]+ tests failed out of" "$out/build.log" | tail -n1)
built=$((SECONDS - start))

eagle_doing "running eagle-demo on Kokkos::Cuda" "see $out/demo.log"
(cd "$out" && "$build/cuda/perf/eagle-demo" --out "$out") 2>&1 | tee "$out/demo.log"

eagle_doing "running eagle-simulate (30 s) on Kokkos::Cuda" "see $out/simulate.log"
"$build/cuda/perf/eagle-simulate" --budget 30 --model --out "$out/eagle-simulate" 2>&1 | tee "$out/simulate.log"

{
  echo "eagle GPU check: $gpu"
  echo "  nvcc: $("$(eagle_find_nvcc)" --version | tail -n1)"
  echo "  build and tests (eagle.sh cuda): ${built} s; ${tests:-no ctest summary found}"
  echo "  demo:"
  grep -E "launches|steps" "$out/demo.log" | sed 's/^/    /'
  echo "  eagle-simulate: $out/eagle-simulate.json (and .csv, .svg)"
  echo "  total: $((SECONDS - start)) s"
} | tee "$out/summary.txt"
