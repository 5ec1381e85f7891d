#!/usr/bin/env bash
# Measures `p2pbench compare`'s error rates on A/A reruns and writes the table docs/compare-error-rates.md.
#
#   tools/compare-error-rates.sh [RUN_DIR...]
#
# RUN_DIRs: result folders of the same preset, same build, same machine, run minutes apart (default: the
# A/A reruns named in docs/compare.md). For every run as the candidate it compares
#   - the run with every other run (A/A: a false alarm is exit 1),
#   - scaled copies of the run (tools/scale-results.sh, i.e. io.p2pbench.tools.ScaleResults): one bandwidth
#     row -10% (host-bw-H2D-PINNED-LOCAL-gpu0-64MiB), every bandwidth row -7%, one latency row +25% at p50
#     (host-lat-H2D-PINNED-LOCAL-gpu0-1MiB; and, to show the limit, peer-lat-CE_P2P_READ-0-0-4KiB, whose noise
#     floor is above 25%), expecting exit 1, the changed rows named and no unchanged row named,
# each with one other run as the baseline and with all other runs together as the baseline (leave one out).
# RATES_EVERY_ENTRY=1 adds a table: every bandwidth entry in turn scaled by 0.9 alone, with one and two other runs
# as the baseline, and on how many entries such a lone change is caught every time (slower: about 40 s a baseline size
# for four quick runs). Default threshold 5% (THRESHOLD=... to change); RATES_OUT=FILE writes the table elsewhere; RATES_JAVA_OPTS
# passes -Drates.bandwidthRow=ID (and latencyRow, smallLatencyRow) for runs without the default rows. The scaled
# copies go to target/compare-error-rates/. The tools live in test scope (src/test/java/io/p2pbench/tools), not
# in the product jar: this script compiles them and runs them from target/test-classes.
# Needs Java 17 and Maven (offline works once ~/.m2 is populated); no GPU. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
  set -- $(cat tools/aa-runs.txt)
fi
for run in "$@"; do
  if [ ! -f "$run/manifest.json" ]; then
    echo "compare-error-rates: no result folder $run; the A/A runs of docs/compare.md are kept in git, not in the tree: git checkout 9805108 -- $run" >&2
    exit 2
  fi
done
mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/compare-tools.classpath
CP="target/test-classes:target/classes:$(cat target/compare-tools.classpath)"
mkdir -p target/compare-error-rates
java ${RATES_JAVA_OPTS:-} ${RATES_EVERY_ENTRY:+-Drates.everyEntry=true} -cp "$CP" io.p2pbench.tools.CompareErrorRates "${RATES_OUT:-docs/compare-error-rates.md}" target/compare-error-rates \
  "${THRESHOLD:-5}" "$@"
echo "wrote ${RATES_OUT:-docs/compare-error-rates.md}"
