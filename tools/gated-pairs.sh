#!/usr/bin/env bash
# Measures compare's gate on partition and serving figures over A/A reruns and writes a Markdown table.
#
#   tools/gated-pairs.sh RUN_DIR RUN_DIR [RUN_DIR...]
#
# RUN_DIRs: result folders of one machine with partition or serving results of the same command (e.g. `p2pbench run
# --preset quick --paths PARTITION --group 0,0`), on one host or several (told apart by their GPU UUIDs). Every ordered
# pair of distinct runs is judged as `p2pbench compare BASELINE CANDIDATE` judges it (threshold 5%), the pairs of one
# host apart from those of two; then each host's runs together as one side against each run, both ways (`compare RUN
# HOST_RUN1,HOST_RUN2`). Per kind of pair: comparisons, exit 1 (false alarms: nothing changed) with their worst row,
# and per section, class (staged through host memory or not) and figure the largest change: the figures of
# docs/compare.md's partition and serving floors tables. RATES_OUT=FILE writes the table there (default
# target/gated-pairs.md). The tool lives in test scope (src/test/java/io/p2pbench/tools): this script compiles it
# and runs it from target/test-classes. Needs Java 17 and Maven (offline works once ~/.m2 is populated); no GPU.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "gated-pairs: give two or more result folders with partition or serving results, e.g. tools/gated-pairs.sh RUN1 RUN2" >&2
  exit 2
fi
runs=()
for run in "$@"; do
  if [ ! -f "$run/manifest.json" ]; then
    echo "gated-pairs: no result folder $run (no manifest.json there); give result folders with partition or serving results" >&2
    exit 2
  fi
  runs+=("$(cd "$run" && pwd)")
done
out="${RATES_OUT:-target/gated-pairs.md}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
cd "$(dirname "$0")/.."
mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/compare-tools.classpath
CP="target/test-classes:target/classes:$(cat target/compare-tools.classpath)"
mkdir -p "$(dirname "$out")"
java -cp "$CP" io.p2pbench.tools.GatedPairs "$out" "${runs[@]}" > /dev/null
echo "wrote $out"
