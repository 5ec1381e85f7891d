#!/usr/bin/env bash
# cuBLAS (p2pbench's Java path) against torch.matmul on each preset's layer GEMM shapes, bf16, on one GPU.
# Usage: P2PBENCH_HOME=<unpacked bundle folder> tools/gemm-check/run.sh [OUT.tsv]
# Paired by default: torch_matmul.py drives GemmCheck --serve and alternates the two shape by shape, GEMM_ROUNDS
# times (default 3), on the same operands. GEMM_MODE=sequential runs the older method (all cuBLAS shapes,
# then all torch shapes, torch on torch.randn operands); GEMM_JAVA_OPTS: JVM options for GemmCheck
# (e.g. -Dp2pbench.gemm.only=2048x4096x1024, sequential mode only).
# (P2PBENCH_HOME defaults to the repository root, which then needs target/classes and target/dependency.)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
here="${P2PBENCH_HOME:-$repo}"
libpath=""
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/lib/x86_64-linux-gnu /usr/local/nvidia/lib64; do
  [ -d "$d" ] && libpath="${libpath:+$libpath:}$d"
done
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$libpath"
if [ -d "$here/lib" ]; then cp="$here/lib/*"; else cp="$here/target/classes:$here/target/dependency/*"; fi
java="$here/runtime/bin/java"; [ -x "$java" ] || java=java
if [ "${GEMM_MODE:-paired}" = paired ]; then
  python3 "$repo/tools/gemm-check/torch_matmul.py" --paired "${GEMM_ROUNDS:-3}" \
    "$java" ${GEMM_JAVA_OPTS:-} -cp "$cp" io.p2pbench.partition.GemmCheck --serve | tee "${1:-/dev/null}"
  exit "${PIPESTATUS[0]}"
fi
tmp="$(mktemp)"
"$java" ${GEMM_JAVA_OPTS:-} -cp "$cp" io.p2pbench.partition.GemmCheck > "$tmp"
python3 "$repo/tools/gemm-check/torch_matmul.py" "$tmp" | tee "${1:-/dev/null}"
rm -f "$tmp"
