#!/usr/bin/env bash
# Learns a machine's between-run drift table (io.p2pbench.report.verdict.RunDrift) from its A/A reruns and writes it
# where compare finds it: src/main/resources/io/p2pbench/report/drift-FINGERPRINT.json.
#
#   tools/learn-run-drift.sh "ABOUT" RUN_DIR RUN_DIR [RUN_DIR...]
#
# RUN_DIRs: result folders of one machine (one fingerprint), one build and one preset, measured in rounds (the
# default of `p2pbench run`), from more than one session where possible: the table is the between-run spread their
# rounds do not explain, per class of rows. ABOUT says where the runs came from (it is printed in compare's verdict
# line). Keep reruns apart to measure the table's error rates on (tools/compare-error-rates.sh): a table learned
# from the runs it is judged on says nothing about false alarms.
# Needs Java 17 and Maven (offline works once ~/.m2 is populated); no GPU. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ]; then
  echo "learn-run-drift: usage: tools/learn-run-drift.sh \"ABOUT\" RUN_DIR RUN_DIR [RUN_DIR...] (two or more runs)" >&2
  exit 2
fi
about="$1"
shift
machines=$(for run in "$@"; do
  if [ ! -f "$run/manifest.json" ]; then
    echo "learn-run-drift: no result folder $run (no manifest.json)" >&2
    exit 2
  fi
  basename "$(dirname "$(realpath "$run")")"
done | sort -u)
if [ "$(echo "$machines" | wc -l)" -ne 1 ]; then
  echo "learn-run-drift: the runs are of more than one machine folder: $(echo $machines); give runs of one machine" >&2
  exit 2
fi
mvn -B -o -q compile dependency:build-classpath -Dmdep.outputFile=target/compare-tools.classpath
out="src/main/resources/io/p2pbench/report/drift-$machines.json"
java -cp "target/classes:$(cat target/compare-tools.classpath)" io.p2pbench.report.verdict.RunDrift "$out" "$about" "$@"
echo "wrote $out"
