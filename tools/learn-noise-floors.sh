#!/usr/bin/env bash
# Regenerates the committed default noise-floor table of `p2pbench compare`
# (src/main/resources/io/p2pbench/report/noise-floors-h200x1.json) from the OLDER committed reruns of the
# H200 node (results/h200x1-single-r580/2026-12-02T13-* and T14-*, 12 runs, builds e4dee3a..a15ca64).
# The newer A/A reruns are held out: tools/compare-error-rates.sh measures the error rates on them.
# Needs Java 17 and Maven (offline is fine once the dependencies are in ~/.m2). Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -o -q compile dependency:build-classpath -Dmdep.outputFile=target/compare-tools.classpath
CP="target/classes:$(cat target/compare-tools.classpath)"
R=results/h200x1-single-r580
java -cp "$CP" io.p2pbench.report.NoiseFloors src/main/resources/io/p2pbench/report/noise-floors-h200x1.json \
  "h200x1-single-r580 reruns of 2026-12-02 13:34-14:50Z" $R/2026-12-02T13-* $R/2026-12-02T14-[0-5]*
echo "wrote src/main/resources/io/p2pbench/report/noise-floors-h200x1.json"
