#!/usr/bin/env bash
# One batched session on the GPU node (run through the `device` tool from the repository root).
# Unpacks the carried bundle (.carry/bundle), then, each step with its own time limit and log:
#   tests     GPU tests (JUnit console, test classes carried in .carry/tests)
#   topology  p2pbench topology (text and --json)
#   doctor    p2pbench doctor (text: doctor.log, --json: doctor.json); host, GPU and verdict lines go to the summary
#   quick     p2pbench run --preset quick (wall time measured); quick-per-benchmark the same with --fork-per-benchmark
#   aa        A/A reruns for compare's error rates: AA_ROUNDS rounds of the quick preset and a standard 1 GiB subset
#   aaq       A/A reruns of the quick preset alone (AA_ROUNDS runs, AA_ARGS options), then compare of each with the first
#   runs      RUNS="ARGS;ARGS": one p2pbench run per ARGS (RUN_LIMIT seconds each)
#   ringab    the 4 KiB ring latency per benchmark vs grouped (RINGAB_ROUNDS)
#   align     0-0 CE_P2P_READ 4K..32M grouped and per benchmark, allocations exact and rounded to 2 MiB, addresses logged
#   order     FixtureOrderProbe: 0-0 copies in sequences of sizes in one process, outside JMH (ORDER_SEQS), clocks logged
#   quick-grouped-round  the quick preset with --fork-groups and allocations rounded to 2 MiB
#   subset    a standard-timing subset on 0-0 (SUBSET_ARGS, SUBSET_LIMIT), one JVM per curve (the default)
#   standard-transfers, standard-collectives  the standard preset in two halves (one device call each: the
#             whole preset takes about 14.5 min on one GPU, more than a call may run): every copy path and
#             the host rows (8 min predicted), then the ring, NCCL and exchanges (6.5 min)
#   targets   p2pbench run over the sizes of the nvbandwidth comparison
#   corrupt   a run with the test-only corruption hook, which must fail its benchmark
#   collect   collective runs (ring all-reduce on 0,0,0,0 and NCCL on 0), when the code has them
#   nvbw      NVIDIA nvbandwidth (.carry/nvbandwidth) at the same sizes; nvbw-again repeats it
#   latency   the native 4-byte copy latency loop (.carry/native/copy_latency); latency-again repeats it
#   probe     the same loop in Java on the suite's CUDA layer, outside JMH (.carry/diag, built from
#             tools/java-latency); probe-again repeats it
#   lat4      p2pbench's JMH latency rows at 4 bytes, full timing; lat4-again repeats it
#   cycles    GpuFixtureCyclesTest: 200 setup/teardown cycles of every fixture, free memory unchanged
#   partition the partition study on group 0,0 (quick timing), then its report; PART_ARGS adds run options
#             (e.g. PART_ARGS="--model MOE_8X_TOP2 --plans SINGLE,EP")
#   forward   the partition step's SINGLE forward (verified, timed, per-kernel breakdown) beside the same shapes
#             through plain PyTorch, with the memory- and compute-bound minimums (tools/forward-check; the
#             carried tools/ when CARRY_DIR names a carry that has them)
#   torchpeer peer and device-local copies through PyTorch (tools/peer-check/torch_peer.py), every ordered pair
#   serving   the serving sweeps of DENSE_8B (SERVE_MODEL=...) over group 0,0 (SERVE_GROUP=0,1: two GPUs) at quick
#             timing, then their report (all seven DENSE_8B sweeps: 7m43s predicted with knees bisected to 5%, at
#             most 9m54s; 6m05s measured on one GPU with the earlier two bisections; run it alone in a device call;
#             SERVE_ARGS adds run options, e.g. --plans SINGLE,TP)
#   gemm      cuBLAS against torch.matmul on every preset's layer GEMM shapes, paired (tools/gemm-check); gemm-again repeats it
#   gemmdiag  why GEMM shapes differ: each side's cuBLAS library, torch's kernels, cuBLASLt traces of GEMMDIAG_ONLY shapes
#   sweep     ring all-reduce and NCCL over 1 MiB..256 MiB (the what-if leave-one-out data), then whatif --validate
#   chartsnode p2pbench report of the newest run on the node itself (charts drawn there, no fonts needed)
#   faults    faults during a real run (docs/hardening.md): a fork killed with SIGKILL, a fork stopped with
#             SIGSTOP (a hang: the watchdog must kill it), SIGINT to the run, the disk filling mid-run (a
#             small tmpfs, where the node lets it be mounted); each run's exit code, last line and manifest
#   ipc       two processes on GPU 0 started as torchrun starts them (the node has no MPI or Slurm): CUDA IPC
#             copies each way (single GPU, verified, device-timed) and NCCL across the two processes (NCCL 2.28
#             refuses two ranks on one GPU: recorded as skipped with NCCL's answer); then the in-process copy on
#             0-0 at the same sizes beside it (IPC_SIZES, IPC_LIMIT; docs/multiprocess.md)
# Usage: tools/device/gpu-session.sh STEP... ; everything lands in $OUT/session.tar.gz, a table last.
# Size: the device tool carries at most 64 MiB: the tracked files (22.7 MiB on 2026-12-04 07:30Z; 9.6 MiB on 2026-12-02 18:20Z, after the
# compact result format) plus what `carry` names: the bundle (27 MiB), .carry/tests (4 MiB, GPU test classes
# and the JUnit console jar) and .carry/native (1 MiB) fit together.
set -u
OUT="${OUT:-/tmp/p2pbench-out}"
W="$OUT/work"
mkdir -p "$W"
C="$(pwd)/${CARRY_DIR:-.carry}"
# Test classes and the JUnit console jar; TESTS_DIR=.carry/tests-gpu (no report fixtures) with
# TESTS_SELECT="--select-package io.p2pbench.gpu" runs only the GPU tests when the carry must be smaller.
T="$(pwd)/${TESTS_DIR:-${CARRY_DIR:-.carry}/tests}"
B=/tmp/p2pbench
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
SUMMARY="$W/summary.txt"
: > "$SUMMARY"
note() { echo "$*" | tee -a "$SUMMARY"; }

rm -rf "$B" && mkdir -p "$B" && tar -C "$B" --strip-components=1 -xJf "$C"/bundle/p2pbench-*-linux-x86_64.tar.xz
nvidia-smi -L > "$W/nvidia-smi.txt" 2>&1; nvidia-smi topo -m >> "$W/nvidia-smi.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >> "$W/nvidia-smi.txt" 2>&1

# CLOCKS_MS=N: log the GPUs' SM and memory clocks, power and utilisation every N ms for the whole session
# (clocks.csv), to set beside the runs' start times.
CLOCK_PID=
if [ -n "${CLOCKS_MS:-}" ]; then
  nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,utilization.gpu,pstate --format=csv \
    -lms "$CLOCKS_MS" > "$W/clocks.csv" 2>&1 &
  CLOCK_PID=$!
fi

step() { # name, limit seconds, command...
  local name="$1" limit="$2"; shift 2
  local t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" > "$W/$name.log" 2>&1
  local rc=$?
  note "$(printf '%-10s rc=%-3s %4ss' "$name" "$rc" "$(( $(date +%s) - t0 ))")"
  return $rc
}

# What is under $OUT comes back even when the call runs out of time: keep the archive current after each step.
snapshot() { tar -C "$W" -czf "$OUT/session.tar.gz" . 2>/dev/null; }
# A fault during a real run: FAULT_NAME, the signal (KILL or STOP for the first benchmark JVM, INT for the run
# itself, FILL to fill the disk under OUTDIR), OUTDIR; then what the run said and what its manifest holds.
fault_run() {
  local name="$1" sig="$2" out="$3" t0 fork pid rc
  t0=$(date +%s)
  "$B/bin/p2pbench" run --preset quick --pairs 0-0 --paths CE_P2P_READ --sizes 4K,1M,64M --out "$out" \
    > "$W/$name.log" 2>&1 &
  pid=$!
  fork=
  for _ in $(seq 120); do # the first benchmark JVM: its command names the run folder below OUTDIR
    fork="$(pgrep -f "p2pbench.run.dir=$out" | head -1)"
    [ -n "$fork" ] && break
    sleep 0.5
  done
  sleep 2 # into its measurement
  case "$sig" in
    KILL|STOP) [ -n "$fork" ] && kill -"$sig" "$fork" ;;
    INT) kill -INT "$pid" ;;
    FILL) dd if=/dev/zero of="$out/filler" bs=4k 2>/dev/null ;;
  esac
  local waited=0
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "${FAULT_LIMIT:-240}" ]; do
    sleep 1; waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    note "  $name: the run was still going after ${FAULT_LIMIT:-240} s; killed"
    kill -KILL "$pid"
  fi
  wait "$pid"; rc=$?
  note "$(printf '%-10s rc=%-3s %4ss signal %s to %s' "$name" "$rc" "$(( $(date +%s) - t0 ))" "$sig" \
    "$([ "$sig" = INT ] && echo "the run" || echo "fork ${fork:-none found}")")"
  tail -2 "$W/$name.log" | tee -a "$SUMMARY"
  python3 - "$out" <<'PY' | tee -a "$SUMMARY"
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*/*/manifest.json")):
    try:
        m = json.load(open(f))
    except ValueError as e:
        print("  manifest NOT whole: %s: %s" % (f, e)); continue
    print("  state %s, %d entries" % (m["state"], len(m["entries"])))
    for e in m["entries"]:
        print("  %-10s %-36s %s" % (e["status"], e["combination"]["id"], (e.get("reason") or "")[:110]))
PY
  [ -n "$(pgrep -f "p2pbench.run.dir=$out")" ] && note "  LEFT RUNNING: $(pgrep -f "p2pbench.run.dir=$out" | tr '\n' ' ')"
  return 0
}

for s in "$@"; do
  case "$s" in
    tests)
      # One class path for the launcher and the tests, so tests that start a child JVM from
      # java.class.path (the CLI tests) find the suite too.
      step tests "${TESTS_LIMIT:-280}" "$B/runtime/bin/java" -Djava.awt.headless=true -Dorg.bytedeco.javacpp.maxbytes=0 \
        -Dorg.bytedeco.javacpp.maxphysicalbytes=0 ${TESTS_JAVA_OPTS:-} \
        -cp "$(ls "$B"/lib/*.jar | tr '\n' ':')$T/test-classes:$T/junit-platform-console-standalone.jar" \
        org.junit.platform.console.ConsoleLauncher execute ${TESTS_SELECT:---scan-classpath $T/test-classes} \
        --details=tree --disable-banner --reports-dir "$W/test-reports"
      grep -E "tests (successful|failed|skipped|aborted)" "$W/tests.log" | tr -s ' ' | tee -a "$SUMMARY"; snapshot ;;
    cycles)
      # 200 setup/teardown cycles of every fixture (GPU test GpuFixtureCyclesTest, P2PBENCH_TEST_CYCLES).
      step cycles "${CYCLES_LIMIT:-150}" "$B/runtime/bin/java" -Djava.awt.headless=true -Dorg.bytedeco.javacpp.maxbytes=0 \
        -Dorg.bytedeco.javacpp.maxphysicalbytes=0 \
        -cp "$(ls "$B"/lib/*.jar | tr '\n' ':')$T/test-classes:$T/junit-platform-console-standalone.jar" \
        org.junit.platform.console.ConsoleLauncher execute --select-class io.p2pbench.gpu.GpuFixtureCyclesTest \
        --details=tree --disable-banner --reports-dir "$W/test-reports-cycles"
      grep -E "tests (successful|failed)|^cycles " "$W/cycles.log" | tr -s ' ' | tee -a "$SUMMARY" ;;
    topology)
      step topology 120 "$B/bin/p2pbench" topology
      "$B/bin/p2pbench" topology --json --out "$W/topology.json"
      snapshot ;;
    doctor)
      # Why P2P is off or slow here, pair by pair (docs/doctor.md). On the one-GPU VM it must say virtual machine,
      # the IOMMU state it finds and one GPU, without errors.
      step doctor 120 "$B/bin/p2pbench" doctor
      "$B/bin/p2pbench" doctor --json > "$W/doctor.json" 2> "$W/doctor-json.err"
      note "doctor --json rc=$? ($(wc -c < "$W/doctor.json") bytes)"
      grep -E "^  [a-z]+ +(GPUs|Virtualisation|IOMMU|NUMA|PCIe link|BAR1|Persistence mode|NVLink state):|^Pairs|^Verdicts|^GPU[0-9]" \
        "$W/doctor.log" | cut -c1-220 | tee -a "$SUMMARY"
      snapshot ;;
    quick)
      step quick "${QUICK_LIMIT:-230}" "$B/bin/p2pbench" run --preset quick --out "$W/results"
      tail -1 "$W/quick.log" | tee -a "$SUMMARY"
      grep "^Time of" "$W/quick.log" | tee -a "$SUMMARY" ;;
    quick-per-benchmark)
      # The quick preset with one JVM per benchmark, for an A/B against the default (one JVM per curve) on the same node.
      step quick-per-benchmark 230 "$B/bin/p2pbench" run --preset quick --fork-per-benchmark --out "$W/results"
      tail -1 "$W/quick-per-benchmark.log" | tee -a "$SUMMARY"
      grep "^Time of" "$W/quick-per-benchmark.log" | tee -a "$SUMMARY" ;;
    standard-transfers|standard-collectives)
      if [ "$s" = standard-transfers ]; then
        paths=CE_P2P_READ,CE_P2P_WRITE,CE_NO_P2P,HOST_STAGED,SM_P2P_READ,SM_P2P_WRITE,HOST_DEVICE
      else
        paths=ALLREDUCE_RING,NCCL,EXCHANGE
      fi
      step "$s" "${STANDARD_LIMIT:-570}" "$B/bin/p2pbench" run --preset standard --paths "$paths" --out "$W/results"
      head -2 "$W/$s.log" | tee -a "$SUMMARY"
      grep -E "^Time of|^Done" "$W/$s.log" | tee -a "$SUMMARY" ;;
    subset)
      # A standard-timing subset (add --fork-per-benchmark to SUBSET_ARGS for one JVM each): where the seconds go at the standard preset's timing.
      step subset "${SUBSET_LIMIT:-240}" "$B/bin/p2pbench" run --preset standard --pairs 0-0 \
        ${SUBSET_ARGS:---paths CE_P2P_READ,SM_P2P_READ,HOST_DEVICE,ALLREDUCE_RING --sizes 4K,1M,64M} \
        --out "$W/results"
      head -2 "$W/subset.log" | tee -a "$SUMMARY"
      tail -1 "$W/subset.log" | tee -a "$SUMMARY"
      grep "^Time of" "$W/subset.log" | tee -a "$SUMMARY" ;;
    ringab)
      # Is the grouped ring latency gap the group JVM itself? RINGAB_ROUNDS rounds (default 3) of the 4 KiB ring
      # at standard timing: one JVM per benchmark, then grouped. Each curve holds FLOAT32 then BFLOAT16: the first
      # combination of a group JVM, then a later one.
      R="--preset standard --pairs 0-0 --paths ALLREDUCE_RING --sizes ${RINGAB_SIZES:-4K}"
      for i in $(seq "${RINGAB_ROUNDS:-3}"); do
        for v in per-benchmark grouped; do
          flag=
          [ "$v" = per-benchmark ] && flag=--fork-per-benchmark
          step "ringab-$v-$i" 90 "$B/bin/p2pbench" run $R $flag --out "$W/results"
          grep -oE "ok +ring-lat-[^ ]+ +p50 [0-9.]+" "$W/ringab-$v-$i.log" | sed "s/^ok */$v-$i /" | tee -a "$SUMMARY"
        done
      done ;;
    align)
      # Does where a 1 MiB buffer lands explain the grouped 1 MiB figure (docs/notes/run-overhead.md)? Four runs
      # of the same subset: grouped and per benchmark, device allocations exact and rounded up to 2 MiB, each
      # logging every cudaMalloc's address (pointers-N.txt).
      A="--preset quick --pairs 0-0 --paths CE_P2P_READ --sizes 4K,1M,2M,8M,32M"
      n=0
      for cfg in "grouped 0" "per-benchmark 0" "grouped 2097152" "per-benchmark 2097152"; do
        read -r mode round <<< "$cfg"
        n=$((n + 1))
        flag=--fork-groups; [ "$mode" = per-benchmark ] && flag=--fork-per-benchmark
        opts="-Dp2pbench.debug.pointers=$W/pointers-$n.txt"
        [ "$round" != 0 ] && opts="$opts -Dp2pbench.deviceAllocRound=$round"
        export P2PBENCH_JAVA_OPTS="$opts"
        step "align$n" 90 "$B/bin/p2pbench" run $A $flag --out "$W/results"
        unset P2PBENCH_JAVA_OPTS
        note "align$n: $mode, allocation round $round"
        grep -E "ok +peer-bw-CE_P2P_READ-0-0-(1|2)MiB " "$W/align$n.log" | tee -a "$SUMMARY"
        grep -E "^Time of|^Results" "$W/align$n.log" | tee -a "$SUMMARY"
        note "  1 MiB allocations, offset in their 2 MiB page: $(grep ' bytes 1048576 ' "$W/pointers-$n.txt" \
          2>/dev/null | awk '{print $NF}' | sort -n | uniq -c | tr -s ' ' | tr '\n' ';')"
      done ;;
    order)
      # Does a copy's figure depend on what ran before it in the same process? One JVM per sequence
      # "PATH WARMUP_MS MEASURE_MS TOKENS" (see FixtureOrderProbe), SM clock sampled every 20 ms meanwhile.
      nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu --format=csv -lms 20 \
        > "$W/order-clocks.csv" 2>&1 &
      smi=$!
      n=0
      IFS=';' read -ra SEQS <<< "${ORDER_SEQS:-CE_P2P_READ 100 300 1M,1M,1M}"
      for seq in "${SEQS[@]}"; do
        n=$((n + 1))
        note "order$n: $seq ($(date -u +%H:%M:%S.%N | cut -c1-12))"
        # Leading words NAME=VALUE set the environment, leading -D words go to the JVM.
        envs=(); jopts=(); set -- $seq
        while [ $# -gt 0 ]; do
          case "$1" in [A-Z_]*=*) envs+=("$1"); shift ;; -D*) jopts+=("$1"); shift ;; *) break ;; esac
        done
        step "order$n" 60 env "${envs[@]}" "$B/runtime/bin/java" -Dorg.bytedeco.javacpp.maxbytes=0 \
          -Dorg.bytedeco.javacpp.maxphysicalbytes=0 "${jopts[@]}" \
          -cp "$(ls "$B"/lib/*.jar | tr '\n' ':')$T/test-classes" io.p2pbench.gpu.FixtureOrderProbe "$@"
        grep "^order" "$W/order$n.log" | tee -a "$SUMMARY"
      done
      kill $smi ;;
    quick-grouped-round)
      # The quick preset in fork groups with device allocations rounded up to 2 MiB.
      export P2PBENCH_JAVA_OPTS="-Dp2pbench.deviceAllocRound=2097152"
      step quick-grouped-round 230 "$B/bin/p2pbench" run --preset quick --fork-groups --out "$W/results"
      unset P2PBENCH_JAVA_OPTS
      tail -1 "$W/quick-grouped-round.log" | tee -a "$SUMMARY"
      grep -E "^Time of|ok +peer-bw-(CE|SM)_P2P_READ-0-0-1MiB " "$W/quick-grouped-round.log" | tee -a "$SUMMARY" ;;
    aa)
      # A/A reruns of one build for compare's error rates (docs/compare.md): AA_ROUNDS rounds, each the quick preset
      # then a standard-timing subset with the 1 GiB one-way and bidirectional copies, back to back.
      for i in $(seq "${AA_ROUNDS:-4}"); do
        step "aa-quick-$i" 160 "$B/bin/p2pbench" run --preset quick --out "$W/results-aa-quick"
        grep "^Time of" "$W/aa-quick-$i.log" | tee -a "$SUMMARY"
        snapshot
        step "aa-std-$i" 130 "$B/bin/p2pbench" run --preset standard --pairs 0-0 --paths CE_P2P_READ,HOST_DEVICE \
          --sizes 1G --out "$W/results-aa-std"
        grep -E "^Time of|bidir.*1GiB" "$W/aa-std-$i.log" | cut -c1-160 | tee -a "$SUMMARY"
        snapshot
      done ;;
    aaq)
      # A/A reruns of the quick preset alone, in rounds (the default), for compare's error rates: AA_ROUNDS runs back
      # to back (AA_ARGS adds run options), each one's wall time and verdict line against the first in the summary.
      for i in $(seq "${AA_ROUNDS:-4}"); do
        step "aaq-$i" "${AAQ_LIMIT:-200}" "$B/bin/p2pbench" run --preset quick ${AA_ARGS:-} --out "$W/results-aaq"
        grep -E "^Done:|^Time of" "$W/aaq-$i.log" | cut -c1-200 | tee -a "$SUMMARY"
        snapshot
      done
      runs=$(ls -d "$W"/results-aaq/*/*/ 2>/dev/null | sort)
      first=$(echo "$runs" | head -1)
      for r in $(echo "$runs" | tail -n +2); do
        "$B/bin/p2pbench" compare "$first" "$r" --out "$W/compare-$(basename "$r")" > "$W/compare-$(basename "$r").log" 2>&1
        rc=$?
        note "compare $(basename "$first") $(basename "$r"): exit $rc $(head -1 "$W/compare-$(basename "$r").log" | cut -c1-220)"
      done
      snapshot ;;
    runs)
      # RUNS="ARGS;ARGS;...": one p2pbench run per ARGS (with --out added), each with its own log.
      n=0
      IFS=';' read -ra RUN_LIST <<< "${RUNS:-}"
      for args in "${RUN_LIST[@]}"; do
        n=$((n + 1))
        step "run$n" "${RUN_LIMIT:-120}" "$B/bin/p2pbench" run $args --out "$W/results"
        note "run$n: $args"
        grep -E "^Results:|^Done:|^Time of" "$W/run$n.log" | tee -a "$SUMMARY"
        grep -E "^\[" "$W/run$n.log" | grep -E " bw-| bidir-|peer-bw|peer-bidir" | cut -c1-150 | tee -a "$SUMMARY"
      done ;;
    targets)
      step targets 300 "$B/bin/p2pbench" run --preset "${TARGET_PRESET:-standard}" --pairs 0-0 --paths CE_P2P_READ,HOST_DEVICE \
        --sizes 4,1M,4M,64M,256M,1G --out "$W/results"
      tail -1 "$W/targets.log" | tee -a "$SUMMARY" ;;
    corrupt)
      (export P2PBENCH_JAVA_OPTS=-Dp2pbench.test.corrupt=true; step corrupt 180 "$B/bin/p2pbench" run --pairs 0-0 \
        --paths CE_P2P_READ --sizes 1M --out "$W/corrupt-results")
      grep -h -o '"reason" : "[^"]*data check failed[^"]*' -r "$W/corrupt-results" | head -2 | tee -a "$SUMMARY" ;;
    collect)
      step collect 420 "$B/bin/p2pbench" run --preset quick --paths ALLREDUCE_RING,NCCL,EXCHANGE --out "$W/results"
      tail -1 "$W/collect.log" | tee -a "$SUMMARY" ;;
    nvbw|nvbw-again)
      dir="$W/nvbandwidth${s#nvbw}"
      mkdir -p "$dir"
      for mib in 1 4 16 64 256 512 1024; do
        step "$s-$mib" 120 "$C/nvbandwidth/nvbandwidth" -t host_to_device_memcpy_ce device_to_host_memcpy_ce \
          host_to_device_bidirectional_memcpy_ce device_to_host_bidirectional_memcpy_ce device_local_copy \
          -b "$mib" -j
        mv "$W/$s-$mib.log" "$dir/nvbandwidth-b$mib.json"
      done ;;
    probe|probe-again)
      step "$s" 120 "$B/runtime/bin/java" -cp "$C/diag:$B/lib/*" LatencyProbe 200000
      grep '^{' "$W/$s.log" | tee -a "$SUMMARY" ;;
    lat4|lat4-again)
      step "$s" 200 "$B/bin/p2pbench" run --preset full --pairs 0-0 --paths CE_P2P_READ,HOST_DEVICE --sizes 4 \
        --out "$W/results-$s"
      tail -1 "$W/$s.log" | tee -a "$SUMMARY"
      python3 - "$W/results-$s" <<'PY' | tee -a "$SUMMARY"
import glob, gzip, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*/*/jmh/*.json.gz")):
    for b in json.load(gzip.open(f)):
        if b["mode"] == "sample":
            p = b["primaryMetric"]["scorePercentiles"]
            print("JMH %-28s %-40s p50=%.3f p90=%.3f p99=%.3f n=%d" % (b["benchmark"].split(".")[-2],
                  ",".join("%s=%s" % kv for kv in sorted(b["params"].items())), p["50.0"], p["90.0"], p["99.0"],
                  sum(c for v, c in b["primaryMetric"]["rawDataHistogram"][0][0])))
PY
      ;;
    partition)
      step partition "${PART_LIMIT:-200}" "$B/bin/p2pbench" run --preset quick --paths PARTITION --group 0,0 \
        ${PART_ARGS:-} --out "$W/results-partition"
      tail -2 "$W/partition.log" | tee -a "$SUMMARY"
      step partition-report 60 "$B/bin/p2pbench" report "$W"/results-partition/*/* --out "$W/report-partition"
      grep -A40 -i "does splitting pay" "$W/report-partition/summary.md" | head -40 | tee -a "$SUMMARY" ;;
    forward)
      ft="$C/tools/forward-check/run.sh"; [ -f "$ft" ] || ft=tools/forward-check/run.sh
      P2PBENCH_HOME="$B" step forward "${FORWARD_LIMIT:-220}" bash "$ft" "$W/forward-check.tsv"
      grep -E "^failed|Exception|^# |^torch " "$W/forward.log" | head -20 | tee -a "$SUMMARY"
      cat "$W/forward-check.tsv" | tee -a "$SUMMARY"; snapshot ;;
    serving)
      step serving "${SERVE_LIMIT:-540}" "$B/bin/p2pbench" run --preset quick --paths SERVING --group "${SERVE_GROUP:-0,0}" \
        --model "${SERVE_MODEL:-DENSE_8B}" ${SERVE_ARGS:-} --out "$W/results-serving"
      head -1 "$W/serving.log" | tee -a "$SUMMARY"
      grep -E "^\[|^Done|^Time of" "$W/serving.log" | tee -a "$SUMMARY"
      step serving-report 40 "$B/bin/p2pbench" report "$W"/results-serving/*/* --out "$W/report-serving"
      grep -A14 -i "does splitting pay at a request rate" "$W/report-serving/summary.md" | head -24 | tee -a "$SUMMARY"; snapshot ;;
    torchpeer)
      # Peer and device-local copies through PyTorch, the outside reference for the CE_P2P rows (tools/peer-check).
      step torchpeer "${TORCHPEER_LIMIT:-120}" python3 "$([ -f "$C/tools/peer-check/torch_peer.py" ] && echo "$C/tools" || echo tools)/peer-check/torch_peer.py" ${TORCHPEER_SIZES:-}
      grep -vE "^#" "$W/torchpeer.log" | tee -a "$SUMMARY"; snapshot ;;
    gemm|gemm-again)
      P2PBENCH_HOME="$B" step "$s" "${GEMM_LIMIT:-240}" bash tools/gemm-check/run.sh "$W/$s-check.tsv"
      grep -E "^cublas |^# torch loaded|Error|error" "$W/$s.log" | head -5 | tee -a "$SUMMARY"
      cat "$W/$s-check.tsv" | tee -a "$SUMMARY" ;;
    gemmdiag)
      # Why some shapes differ (docs/notes/gemm-check.md): which cuBLAS each side loads, torch's kernels per
      # shape (GEMM_PROFILE), and cuBLASLt's trace of chosen shapes on both sides (GEMMDIAG_ONLY), each in the
      # sequential mode of run.sh (the paired mode does not filter shapes). A Java run with torch's folder first
      # on LD_LIBRARY_PATH was tried on 2026-12-04 and still loaded the system library (JavaCPP's own path).
      tdir="$(python3 - <<'PY' 2>/dev/null
import os, torch
a = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
(a @ a).sum().item()
print(os.path.dirname(sorted(l.split()[-1] for l in open("/proc/self/maps") if "libcublas.so" in l)[0]))
PY
)"
      note "torch's cuBLAS folder: $tdir"
      ls -l /usr/local/cuda/targets/x86_64-linux/lib/libcublas*.so* "$tdir"/libcublas*.so* 2>&1 | tee -a "$SUMMARY"
      note "profilers: $(command -v nsys ncu 2>/dev/null | tr '\n' ' ')"
      GEMM_MODE=sequential GEMM_PROFILE=1 P2PBENCH_HOME="$B" step gemmdiag-sys 120 bash tools/gemm-check/run.sh "$W/gemmdiag-sys.tsv"
      grep -E "^cublas |^# torch loaded" "$W/gemmdiag-sys.log" | tee -a "$SUMMARY"
      cat "$W/gemmdiag-sys.tsv" | tee -a "$SUMMARY"
      grep "^kernel " "$W/gemmdiag-sys.log" | cut -c1-400 | tee -a "$SUMMARY"
      mkdir -p "$W/ltlog"
      GEMM_MODE=sequential CUBLASLT_LOG_LEVEL=2 CUBLASLT_LOG_FILE="$W/ltlog/lt-%i.txt" \
        GEMM_JAVA_OPTS="-Dp2pbench.gemm.only=${GEMMDIAG_ONLY:-2048x8192x1024,2048x14336x4096,8x4096x6144,2048x1024x8192}" \
        P2PBENCH_HOME="$B" step gemmdiag-lt 120 bash tools/gemm-check/run.sh "$W/gemmdiag-lt.tsv"
      cat "$W/gemmdiag-lt.tsv" | tee -a "$SUMMARY"
      for f in "$W"/ltlog/lt-*.txt; do
        note "$(basename "$f"): $(wc -l < "$f") lines"
        sed -E 's/^.*\[(cublasLt[A-Za-z]*Matmul)\]/\1/; s/(A|B|C|D)=0X[0-9A-F]+//g; s/stream=0X[0-9A-F]+//; s/workSpace=0X[0-9A-F]+//' \
          "$f" | sort | uniq -c | sort -rn | head -8 | cut -c1-600 | tee -a "$SUMMARY"
      done ;;
    sweep)
      step sweep 150 "$B/bin/p2pbench" run --preset quick --paths ALLREDUCE_RING,NCCL --sizes 1M,4M,16M,64M,256M \
        --out "$W/results"
      tail -1 "$W/sweep.log" | tee -a "$SUMMARY"
      step whatif 60 "$B/bin/p2pbench" whatif --validate "$(ls -d "$W"/results/*/* | tail -1)" --out "$W/whatif"
      tail -25 "$W/whatif.log" | tee -a "$SUMMARY" ;;
    chartsnode)
      step chartsnode 60 "$B/bin/p2pbench" report "$(ls -d "$W"/results/*/* | tail -1)" --out "$W/report-node"
      ls "$W/report-node" | tr '\n' ' ' | tee -a "$SUMMARY"; echo | tee -a "$SUMMARY" ;;
    faults)
      fault_run faults-kill KILL "$W/faults-kill"
      fault_run faults-hang STOP "$W/faults-hang"   # the watchdog: max(120 s, 4 x predicted)
      fault_run faults-int INT "$W/faults-int"
      disk=/tmp/p2pbench-faults-disk
      mkdir -p "$disk"
      if mount -t tmpfs -o size=4m tmpfs "$disk" 2>/dev/null; then
        fault_run faults-disk FILL "$disk"
        mkdir -p "$W/faults-disk" && cp -r "$disk"/h* "$W/faults-disk/" 2>/dev/null
        umount -l "$disk"
      else
        note "faults-disk: skipped: cannot mount a tmpfs here (needs root)"
      fi ;;
    ipc)
      # Two ranks of one job on GPU 0: each process is bound to GPU 0 by CUDA_VISIBLE_DEVICES, as a launcher binds
      # one GPU per process; NCCL bootstraps from NCCL_COMM_ID (rank 0's address), torchrun's own port left alone.
      port=$(( 29500 + RANDOM % 2000 ))
      job="ipc-$(date -u +%Y%m%dT%H%M%SZ)"
      t0=$(date +%s)
      pids=()
      for r in 0 1; do
        env RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r LOCAL_WORLD_SIZE=2 GROUP_RANK=0 MASTER_ADDR=127.0.0.1 \
          MASTER_PORT=$port TORCHELASTIC_RUN_ID="$job" NCCL_COMM_ID=127.0.0.1:$((port + 1)) CUDA_VISIBLE_DEVICES=0 \
          NCCL_DEBUG=WARN timeout --kill-after=10 "${IPC_LIMIT:-240}" "$B/bin/p2pbench" run \
          --sizes "${IPC_SIZES:-4K,1M,64M,256M}" --out "$W/results-ipc" > "$W/ipc-rank$r.log" 2>&1 &
        pids+=($!)
      done
      rcs=""
      for p in "${pids[@]}"; do wait "$p"; rcs="$rcs $?"; done
      note "$(printf '%-10s rc=%-5s %4ss' ipc "$(echo $rcs | tr ' ' ',')" "$(( $(date +%s) - t0 ))")"
      grep -E "^Job |^Plan:|^Results:|^Done:|^  rank |^NCCL|^  [A-Z_]+ +(FLOAT32|BFLOAT16)" "$W/ipc-rank0.log" \
        | cut -c1-220 | tee -a "$SUMMARY"
      grep -E "NCCL WARN|failed  |refused|p2pbench:" "$W"/ipc-rank*.log | head -6 | cut -c1-300 | tee -a "$SUMMARY"
      step ipc-inprocess 150 "$B/bin/p2pbench" run --pairs 0-0 --paths CE_P2P_READ \
        --sizes "${IPC_SIZES:-4K,1M,64M,256M}" --out "$W/results"
      grep -E "ok +peer-bw-CE_P2P_READ-0-0-" "$W/ipc-inprocess.log" | cut -c1-160 | tee -a "$SUMMARY"
      snapshot ;;
    latency|latency-again)
      step "$s" 120 "$C/native/copy_latency" -n 200000 -b 4 -j
      cat "$W/$s.log" | tee -a "$SUMMARY" ;;
  esac
done
[ -n "$CLOCK_PID" ] && kill "$CLOCK_PID" 2>/dev/null
tar -C "$W" -czf "$OUT/session.tar.gz" .
echo "---- summary"; cat "$SUMMARY"
