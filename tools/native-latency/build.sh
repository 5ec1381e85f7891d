#!/usr/bin/env bash
# Builds copy_latency for the H200 (sm_90).
# Usage: tools/native-latency/build.sh [output-path]   (default: <repo>/.carry/native/copy_latency)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/.carry/native/copy_latency}"
mkdir -p "$(dirname "$out")"
"${NVCC:-nvcc}" -O2 -gencode arch=compute_90,code=sm_90 -o "$out" "$here/copy_latency.cu"
echo "built $out"
