#!/usr/bin/env bash
# Leave-one-host-out error rates of compare within one host (docs/compare-error-rates-h100.md): the drift table a
# machine ships is learned from some hosts of its kind and judges runs of another.
#
#   tools/leave-one-host-out-rates.sh OUT_DIR HOSTFILE HOSTFILE [HOSTFILE...]
#
# Each HOSTFILE lists the result folders of one host (one GPU UUID), one per line, all of one machine fingerprint,
# preset and build, measured in rounds. For each host h: a drift table is learned from the runs of the other hosts
# (RunDrift, put first on the classpath), then tools/compare-error-rates.sh's measurement (CompareErrorRates: A/A
# pairs and injected changes, 1-, 2- and 3-run baselines) runs on the runs of h, four at a time in the order listed
# (a host of 8 runs gives two sets). Writes OUT_DIR/rates-HOST-N.md per set and OUT_DIR/table-HOST.log (the table
# learned without HOST). ONLY="HOSTFILE..." evaluates those hosts alone (the tables are still learned from all the
# others), so that two invocations can share the work. Needs Java 17 and Maven (offline works once ~/.m2 is
# populated); NO_BUILD=1 skips the build; RATES_EVERY_ENTRY=1 adds the entry-by-entry table
# (tools/compare-error-rates.sh). No GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ]; then
  echo "leave-one-host-out-rates: usage: tools/leave-one-host-out-rates.sh OUT_DIR HOSTFILE HOSTFILE [HOSTFILE...]" >&2
  exit 2
fi
out="$1"
shift
mkdir -p "$out"
[ -n "${NO_BUILD:-}" ] || mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/compare-tools.classpath
CP="target/test-classes:target/classes:$(cat target/compare-tools.classpath)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for h in "$@"; do
  case " ${ONLY:-$*} " in *" $h "*) ;; *) continue ;; esac
  name=$(basename "$h" .txt)
  machine=$(basename "$(dirname "$(realpath "$(head -1 "$h")")")")
  tbl="$work/$name/io/p2pbench/report"
  mkdir -p "$tbl"
  java -cp "$CP" io.p2pbench.report.verdict.RunDrift "$tbl/drift-$machine.json" "without $name" \
    $(for g in "$@"; do [ "$g" != "$h" ] && cat "$g"; done) > "$out/table-$name.log"
  n=0
  while read -r a && read -r b && read -r c && read -r d; do
    n=$((n + 1))
    java ${RATES_EVERY_ENTRY:+-Drates.everyEntry=true} -cp "$work/$name:$CP" io.p2pbench.tools.CompareErrorRates "$out/rates-$name-$n.md" "$work/scaled" 5 \
      "$a" "$b" "$c" "$d" > "$out/rates-$name-$n.log" 2>&1
    echo "host $name, set $n: $out/rates-$name-$n.md"
  done < "$h"
done
