#!/usr/bin/env bash
# Regenerates the committed default noise-floor table of `p2pbench compare`
# (src/main/resources/io/p2pbench/report/noise-floors-h200x1.json) from the OLDER reruns of the H200 node
# (results/h200x1-single-r580/2026-12-02T13-* and T14-[0-5]*, 12 runs, builds e4dee3a..a15ca64).
# The newer A/A reruns are held out: tools/compare-error-rates.sh measures the error rates on them.
# Seven of the twelve were removed from the tracked tree (results/h200x1-single-r580/README.md); git keeps
# them, so the runs are read as committed at f0dd06e (the last commit holding all twelve), unpacked with
# `git archive` into target/noise-floor-runs. Needs git history, Java 17 and Maven (offline is fine once the
# dependencies are in ~/.m2). Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
COMMIT=f0dd06e
R=results/h200x1-single-r580
OUT=target/noise-floor-runs
git cat-file -e "$COMMIT^{commit}" 2>/dev/null || {
  echo "learn-noise-floors: commit $COMMIT is not in this clone (a shallow clone?); fetch the full history" >&2; exit 2; }
rm -rf "$OUT" && mkdir -p "$OUT"
runs=$(git ls-tree --name-only "$COMMIT" "$R/" | grep -E "^$R/2026-12-02T(13-|14-[0-5])")
# shellcheck disable=SC2086
git archive "$COMMIT" $runs | tar -x -C "$OUT"
mvn -B -o -q compile dependency:build-classpath -Dmdep.outputFile=target/compare-tools.classpath
CP="$PWD/target/classes:$(cat target/compare-tools.classpath)"
TABLE="$PWD/src/main/resources/io/p2pbench/report/noise-floors-h200x1.json"
# From inside the unpacked tree, so the table names the runs by their repository paths.
# shellcheck disable=SC2086
(cd "$OUT" && java -cp "$CP" io.p2pbench.report.verdict.NoiseFloors "$TABLE" \
  "h200x1-single-r580 reruns of 2026-12-02 13:34-14:50Z" $runs)
echo "wrote src/main/resources/io/p2pbench/report/noise-floors-h200x1.json from $(echo "$runs" | wc -l) runs of $COMMIT"
