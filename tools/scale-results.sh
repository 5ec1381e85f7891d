#!/usr/bin/env bash
# Writes a scaled COPY of a result folder, to test what `p2pbench compare` detects. Never edits the source.
#
#   tools/scale-results.sh SOURCE TARGET FACTOR --entry COMBINATION_ID   # one row, e.g. 0.9 = -10% bandwidth
#   tools/scale-results.sh SOURCE TARGET FACTOR --metric bandwidth       # every bandwidth row, e.g. 0.93
#   tools/scale-results.sh SOURCE TARGET FACTOR --metric latency         # every latency row, e.g. 1.25
#
# Bandwidth: every batch's laneGBps in samples/ID.json[.gz] and every *GBps secondary metric in the JMH file are
# multiplied by FACTOR. Latency: every value of the JMH SampleTime histogram (so p50 and all percentiles move
# by FACTOR). The copy's manifest.json gets "injectedChange" saying what was done. Prints the ids scaled.
# Reads and writes results format p2pbench-results/2 (gzipped jmh/*.json.gz and samples/*.json.gz, each file
# written back in the form it was read) and p2pbench-results/1 (plain JSON; its jmh-results.json is rebuilt);
# refuses any other format with one line (exit 2). The tool lives in test scope (src/test/java/io/p2pbench/tools),
# not in the product jar; it runs from target/test-classes. Needs Java 17 and Maven; no GPU.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
(cd "$ROOT" && mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/compare-tools.classpath)
exec java -cp "$ROOT/target/test-classes:$ROOT/target/classes:$(cat "$ROOT/target/compare-tools.classpath")" \
  io.p2pbench.tools.ScaleResults "$@"
