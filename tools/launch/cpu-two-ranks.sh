#!/usr/bin/env bash
# Two ranks of a job on this machine without a GPU, as the tests run them (LaunchTwoProcessTest): each a JVM with
# a recorded launcher environment (src/test/resources/launch/ENV-rank{0,1}.env) and the TEST-ONLY CPU stand-in
# workload, exchanging through the job folder; rank 0 collects. Prints both ranks' output. What it shows is the
# launch, exchange and collection machinery; its figures are host array copies, never GPU figures.
# Usage: tools/launch/cpu-two-ranks.sh OUT_DIR [ENV_PREFIX] [p2pbench run options...]
#   after: mvn -o -q test-compile && mvn -o -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt
set -euo pipefail
out="$1"; shift
prefix="${1:-cpu-slurm-2tasks}"; [ $# -gt 0 ] && shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cp="$root/target/classes:$root/target/test-classes:$(cat "$root/target/cp.txt")"
mkdir -p "$out"
for r in 0 1; do
  # A clean environment holding only the recorded launcher variables (and what Java needs).
  env -i PATH="$PATH" HOME="${HOME:-/tmp}" $(grep -v '^#' "$root/src/test/resources/launch/$prefix-rank$r.env") \
    java -XX:TieredStopAtLevel=1 -Dp2pbench.test.rankWorkload=io.p2pbench.launch.CpuStandInWorkload \
    ${STANDIN_OPTS:-} -cp "$cp" io.p2pbench.cli.Main run --out "$out/results" "$@" \
    > "$out/rank$r.out" 2> "$out/rank$r.err" &
done
rc=0
wait %1 || rc=$?
echo "== rank 0 (exit $rc)"; cat "$out/rank0.out" "$out/rank0.err"
rc=0
wait %2 || rc=$?
echo "== rank 1 (exit $rc)"; cat "$out/rank1.out" "$out/rank1.err"
