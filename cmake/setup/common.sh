# Sourced by the setup scripts: one line on any failure, saying which step failed and what to do,
# and a table of each stage's minutes.

set -Eeuo pipefail

# What the script is doing now, and what a user can do if it fails; each step sets both.
eagle_step="starting"
eagle_hint="rerun with 'bash -x' to see the failing command"

eagle_on_error() {
  local code=$1 command=$2
  echo "eagle setup: FAILED while $eagle_step (exit $code from: $command); $eagle_hint" >&2
}
trap 'eagle_on_error $? "$BASH_COMMAND"' ERR

# Sets the step and its hint for the error line above.
eagle_doing() {
  eagle_step=$1
  eagle_hint=${2:-"rerun with 'bash -x' to see the failing command"}
}

# The system's own Debian mirror, from deb822 sources (containers, cloud images) or the one-line
# sources.list (the Debian installer). Prints nothing when neither names one.
eagle_debian_mirror() {
  local file uri
  for file in /etc/apt/sources.list.d/*.sources; do
    [[ -f $file ]] || continue
    uri=$(awk 'tolower($1) == "uris:" {print $2; exit}' "$file")
    [[ -n $uri ]] && { echo "$uri"; return 0; }
  done
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f $file ]] || continue
    # deb [options] URI suite components: the first field with a scheme is the mirror.
    uri=$(awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' "$file")
    [[ -n $uri ]] && { echo "$uri"; return 0; }
  done
  return 0
}

# Where Kokkos 4 comes from: EAGLE_KOKKOS4, else third-party/ in ../shared beside the repository
# (where CI keeps the tarballs). Either a folder holding the Kokkos 4.6.01 tarballs and their
# SHA256SUMS, or the prefix of a Kokkos 4 already installed (the user's own).
eagle_kokkos4() {
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  echo "${EAGLE_KOKKOS4:-$root/../shared/third-party}"
}

# Whether a prefix holds an installed Kokkos 4 (its CMake package says version 4.x).
eagle_is_kokkos4_install() {
  local version_file
  for version_file in "$1"/lib*/cmake/Kokkos/KokkosConfigVersion.cmake; do
    [[ -f $version_file ]] && grep -q 'PACKAGE_VERSION "4\.' "$version_file" && return 0
  done
  return 1
}

# nvcc's flags for Hopper's native code (sm_90: the H100 and H200), which Kokkos 3.4.1 cannot name,
# with device code compressed for size (8 times smaller than nvcc's default: the GPU bundle travels).
eagle_hopper_nvcc_flags() { echo "-gencode=arch=compute_90,code=sm_90 --compress-mode=size"; }

# The CUDA compiler: CUDACXX, then PATH, then the toolkit's default place. Prints nothing when none.
eagle_find_nvcc() {
  local candidate
  for candidate in "${CUDACXX:-}" "$(command -v nvcc || true)" /usr/local/cuda/bin/nvcc; do
    [[ -n $candidate && -x $candidate ]] && { echo "$candidate"; return 0; }
  done
  return 0
}

# Stage timing: `eagle_stage NAME command...` runs the command and records its minutes;
# eagle_stage_table prints them (also after a failure, from the EXIT trap the caller sets).
eagle_stage_names=()
eagle_stage_seconds=()
eagle_stage() {
  local name=$1 start=$SECONDS
  shift
  echo "=== eagle: $name" >&2
  eagle_doing "$name" "see the output above; the same command retries it (finished work is kept)"
  "$@"
  eagle_stage_names+=("$name")
  eagle_stage_seconds+=($((SECONDS - start)))
}

eagle_stage_table() {
  ((${#eagle_stage_names[@]})) || return 0
  local i total=0
  echo "eagle: stage times (minutes:seconds)"
  for i in "${!eagle_stage_names[@]}"; do
    printf '  %-66s %3d:%02d\n' "${eagle_stage_names[$i]}" $((eagle_stage_seconds[i] / 60)) $((eagle_stage_seconds[i] % 60))
    total=$((total + eagle_stage_seconds[i]))
  done
  printf '  %-66s %3d:%02d\n' "total" $((total / 60)) $((total % 60))
}
