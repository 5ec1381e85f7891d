# A/B of two builds on one GPU host (issue 34): the bundle in .carry/bundle against the same bundle with the jar
# .carry/old/p2pbench-0.1.0.jar (another build) in place of its own; first used for one shared JVM a round (e5f6f38)
# against three (553f54e),
# the quick preset, alternating new, old, new, old, new, old on one host; wall time of each run.
# Run from the repository root through the device tool with carry [".carry"]: bash tools/device/ab-two-builds.sh
# (the call of 2026-12-06 10:22Z ran it as .carry/ab.sh, timing each run with bc, which the node lacks: it printed
# 0.0 s; the wall times were read from the result folders' and logs' times instead; awk does it now).
set -u
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64"
export NCCL_NVLS_ENABLE=0
N=/tmp/pnew; O=/tmp/pold; rm -rf $N $O; mkdir -p $N $O
tar -C $N --strip-components=1 -xJf .carry/bundle/p2pbench-*-linux-x86_64.tar.xz
tar -C $O --strip-components=1 -xJf .carry/bundle/p2pbench-*-linux-x86_64.tar.xz
cp .carry/old/p2pbench-0.1.0.jar $O/lib/p2pbench-0.1.0.jar
W=/tmp/ab; rm -rf $W; mkdir -p $W
nvidia-smi -L > $W/node.txt 2>&1; cat $W/node.txt
$N/bin/p2pbench --version; $O/bin/p2pbench --version
i=0
for b in ${AB_ORDER:-new old new old new old}; do
  i=$((i+1)); P=$N; [ $b = old ] && P=$O
  s=$(date +%s.%N)
  timeout ${AB_LIMIT:-110} $P/bin/p2pbench run --preset quick --out $W/results > $W/run-$i-$b.log 2>&1
  rc=$?
  printf '%s %-3s rc=%s %5.1f s  %s | %s\n' $i $b $rc "$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')" "$(grep -E '^Time of' $W/run-$i-$b.log | sed 's/Time of 72 benchmarks: //')" "$(grep -E '^Done' $W/run-$i-$b.log | cut -c1-40)" | tee -a $W/table.txt
done
tar -C $W -czf $OUT/ab.tar.gz .
cat $W/table.txt
