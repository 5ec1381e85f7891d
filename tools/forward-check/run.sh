#!/usr/bin/env bash
# The partition step's SINGLE forward (io.p2pbench.partition.ForwardCheck: verified, timed, per-kernel breakdown)
# beside the same shapes through plain PyTorch (torch_forward.py), with the memory- and compute-bound minimums.
# Usage: P2PBENCH_HOME=<unpacked bundle folder> tools/forward-check/run.sh [OUT.tsv] [MODEL...]
# The Java program runs first and exits (its GPU memory freed), then the PyTorch one: not interleaved.
# (P2PBENCH_HOME defaults to the repository root, which then needs target/classes and target/dependency.)
set -euo pipefail
here_tools="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here_tools/../.." && pwd)"
home="${P2PBENCH_HOME:-$repo}"
libpath=""
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/lib/x86_64-linux-gnu /usr/local/nvidia/lib64; do
  [ -d "$d" ] && libpath="${libpath:+$libpath:}$d"
done
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$libpath"
if [ -d "$home/lib" ]; then cp="$home/lib/*"; else cp="$home/target/classes:$home/target/dependency/*"; fi
java="$home/runtime/bin/java"; [ -x "$java" ] || java=java
out="${1:-/dev/null}"
shift || true
ours="$(mktemp)"
# A failed check ends that step's line with "failed" (ForwardCheck goes on with the next); torch still runs.
set +e
"$java" -Dorg.bytedeco.javacpp.maxbytes=0 -Dorg.bytedeco.javacpp.maxphysicalbytes=0 ${FORWARD_JAVA_OPTS:-} \
  -cp "$cp" io.p2pbench.partition.ForwardCheck "$@" | tee "$ours"
rc=${PIPESTATUS[0]}
set -e
PYTHONUNBUFFERED=1 python3 "$here_tools/torch_forward.py" "$ours" "$@" | tee "$out"
rm -f "$ours"
exit "$rc"
