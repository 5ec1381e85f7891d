#!/usr/bin/env bash
# Measures the serving verdict's error rates on A/A reruns and writes the table docs/serving-error-rates.md.
#
#   tools/serving-error-rates.sh RUN_DIR RUN_DIR [RUN_DIR...]
#
# RUN_DIRs: result folders with serving sweeps of the same command and workload, same build, same machine. For
# every sweep (plan, transport and group of one model and workload) that two or more of them hold, and every
# ordered pair of distinct runs (i, j), run i's sweep is judged as if it were a plan against run j's as if it
# were SINGLE, by the report's own rules (ServingVerdict.figures: one run per side, the documented floors). A keep
# is a false alarm; a p99 at the reference rate risen by more than the latency floor, or a knee fallen by more
# than the capacity floor, is a difference the verdict would call worse. Also written: the measured spread
# (max/min - 1) between the runs of each p99 at every rate they all measured, and of the knee, beside the floors.
# RATES_OUT=FILE writes the table elsewhere. The tool lives in test scope (src/test/java/io/p2pbench/tools), not in
# the product jar: this script compiles it and runs it from target/test-classes.
# Needs Java 17 and Maven (offline works once ~/.m2 is populated); no GPU. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "serving-error-rates: give two or more result folders with serving sweeps, e.g. tools/serving-error-rates.sh results/h200x1-single-r580/2026-12-04T16-54-29Z results/h200x1-single-r580/2026-12-04T18-16-33Z" >&2
  exit 2
fi
for run in "$@"; do
  if [ ! -f "$run/manifest.json" ]; then
    echo "serving-error-rates: no result folder $run (no manifest.json there); give result folders with serving sweeps" >&2
    exit 2
  fi
done
mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/compare-tools.classpath
CP="target/test-classes:target/classes:$(cat target/compare-tools.classpath)"
java -cp "$CP" io.p2pbench.tools.ServingErrorRates "${RATES_OUT:-docs/serving-error-rates.md}" "$@"
echo "wrote ${RATES_OUT:-docs/serving-error-rates.md}"
