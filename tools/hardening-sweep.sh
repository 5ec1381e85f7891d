#!/usr/bin/env bash
# A repeatable sweep of bad input, tried as a new user would (issue 36): for each command, bad values of
# every option (empty, separators only, huge counts, huge/negative/zero numbers, non-numbers, unicode,
# control characters, very long strings) and crafted result folders (a small committed run copied into a
# sandbox and corrupted: missing, NaN, negative and huge values, wrong types, links in and out, truncated
# gzip, a gzip bomb, FIFOs). Needs no GPU: the CLI runs from target/classes and the dependency classpath.
#
#   tools/hardening-sweep.sh                 # every family
#   tools/hardening-sweep.sh report doctor   # only these families
#
# Each case runs under `timeout 30` in an empty working directory inside a temporary sandbox and is
#   OK        exit 0, or exit 2 with exactly one line on stderr, no stack trace, naming the value
#   SHORT     exit 1 or another code, a stack trace or "internal error", more than one line, a line that
#             does not name the value, more than 20 s, or (exit 0) a chart that is not well-formed XML,
#             a page with a raw <script> outside code, or a control character on the terminal
#   CRITICAL  a file outside the sandbox changed or deleted (a victim folder that links point to, and the
#             checkout's tracked files), or a hang past 30 s
# It prints a table by family (cases, ok, short, critical) and lists every case that is not OK; the exit
# code is 1 when a case is CRITICAL. Environment: SWEEP_KEEP=1 keeps the sandbox, SWEEP_JAVA_OPTS replaces
# the JVM options (default: quick start-up), SWEEP_CASE_LIMIT (30) and SWEEP_SLOW (20) the seconds.
set -uo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
LIMIT="${SWEEP_CASE_LIMIT:-30}"
SLOW="${SWEEP_SLOW:-20}"
JOPTS="${SWEEP_JAVA_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -Xmx2g -Djava.awt.headless=true}"
FAMILIES=("$@")
[ ${#FAMILIES[@]} -eq 0 ] && FAMILIES=(run topology doctor report compare migrate whatif)

# ------------------------------------------------------------------ build
CPFILE="$ROOT/target/hardening-sweep.classpath"
if [ ! -s "$CPFILE" ] || [ "$ROOT/pom.xml" -nt "$CPFILE" ]; then
  # Offline first; the dependency plugin's own artifacts may not be cached yet (then from Maven Central, once).
  (cd "$ROOT" && { mvn -B -q -o compile dependency:build-classpath -Dmdep.outputFile="$CPFILE" \
    || mvn -B -q compile dependency:build-classpath -Dmdep.outputFile="$CPFILE"; }) >&2 || {
    echo "hardening-sweep: the build failed (mvn compile dependency:build-classpath)" >&2; exit 2; }
elif ! (cd "$ROOT" && mvn -B -q -o compile) >&2; then
  echo "hardening-sweep: the build failed (mvn -o compile)" >&2; exit 2
fi
CP="$ROOT/target/classes:$(cat "$CPFILE")"
command -v python3 >/dev/null || { echo "hardening-sweep: needs python3 (to corrupt JSON)" >&2; exit 2; }

SANDBOX="$(mktemp -d "${TMPDIR:-/tmp}/p2pbench-sweep.XXXXXX")"
VICTIM="$(mktemp -d "${TMPDIR:-/tmp}/p2pbench-victim.XXXXXX")"
cleanup() {
  if [ "${SWEEP_KEEP:-0}" = 1 ]; then echo "sandbox kept: $SANDBOX (victim $VICTIM)" >&2
  else chmod -R u+rwX "$SANDBOX" 2>/dev/null; rm -rf "$SANDBOX" "$VICTIM"; fi
}
trap cleanup EXIT
WORK="$SANDBOX/cwd"; F="$SANDBOX/f"; CASES="$SANDBOX/cases"
mkdir -p "$WORK" "$F" "$CASES" "$VICTIM/jmh" "$VICTIM/samples" "$VICTIM/out"
printf 'thesis\n' > "$VICTIM/thesis.tex"
printf '[]\n' > "$VICTIM/jmh/001-peer-bw-CE_P2P_READ-0-0-4B.json"
printf 'keep\n' > "$VICTIM/out/summary.md"

RUN1="$ROOT/results/h200x1-single-r580/2026-12-02T14-27-49Z"   # 16 copies and host transfers, format 2
RUN2="$ROOT/results/h200x1-single-r580/2026-12-02T14-44-42Z"   # 17 collectives, format 2
T8="$ROOT/src/test/resources/topologies/h200x8-nv18-r580.json"
T1="$ROOT/src/test/resources/topologies/h200x1-single-r580.json"
NCCL_TXT="$ROOT/src/test/resources/fixtures/nccl-tests/synthetic-h200x8-all_reduce_perf.txt"
NCCL_JSON="$ROOT/src/test/resources/fixtures/nccl-tests/synthetic-h200x8-all_reduce_perf.json"
NVB_JSON="$ROOT/src/test/resources/fixtures/nvbandwidth/synthetic-h200x8-nvbandwidth-v0.8.json"
MACHINE="$ROOT/src/test/resources/doctor/switch-acs-on"
X8="$ROOT/src/test/resources/fixtures/results/synthetic-h200x8"

# ------------------------------------------------------------------ cases
n=0
# add FAMILY NAME NEEDLE ARG...: one case; NEEDLE (alternatives split by |) must appear in the error line
add() {
  local family="$1" name="$2" needle="$3"; shift 3
  case " ${FAMILIES[*]} " in *" $family "*) ;; *) return ;; esac
  n=$((n + 1))
  local d; d="$CASES/$(printf %04d "$n")"
  mkdir -p "$d"
  printf '%s' "$family" > "$d/family"; printf '%s' "$name" > "$d/name"; printf '%s' "$needle" > "$d/needle"
  printf '%s\0' "$@" > "$d/argv"
}
wants() { case " ${FAMILIES[*]} " in *" $1 "*) return 0 ;; esac; return 1; }

LONG="$(printf 'x%.0s' $(seq 1 5000))"
CTRL=$'bad\x1b[31m\x07value'
CTRL_SHOWN="bad"
# bad values of a free-text or numeric option, as NAME VALUE NEEDLE triples
VALUES=(
  empty "" "''|empty"
  comma "," ","
  commas ",,," ",,,"
  minus-one "-1" "-1"
  zero "0" "0"
  huge "99999999999999999999999" "9999999999"
  nan "NaN" "NaN"
  infinity "Infinity" "Infinity"
  word "abc" "abc"
  unicode "ünïcødé" "ünïcødé"
  fullwidth "１２" "１２|12"
  control "$CTRL" "$CTRL_SHOWN"
  long "$LONG" "xxxxxxxxxxxxxxxxxxxx"
  semicolon "0;rm -rf /" "0;rm"
)
for_values() { # for_values FAMILY [--also NEEDLE] PREFIX-ARGS... -- OPTION [SUFFIX-ARGS...]
  local family="$1" also=""; shift
  [ "$1" = --also ] && { also="|$2"; shift 2; }
  local pre=() opt post=()
  while [ "$1" != "--" ]; do pre+=("$1"); shift; done; shift
  opt="$1"; shift; post=("$@")
  local i
  for ((i = 0; i < ${#VALUES[@]}; i += 3)); do
    add "$family" "$opt ${VALUES[i]}" "${VALUES[i + 2]}$also" "${pre[@]}" "$opt" "${VALUES[i + 1]}" "${post[@]}"
  done
}

# A corrupted copy of a committed run: corrupt NAME BASE PYTHON (the Python edits manifest m / topology t,
# with helpers; d is the folder), echoing the folder
corrupt() {
  local name="$1" base="$2" code="$3" d="$F/$1"
  [ -e "$d" ] && { echo "$d"; return; }
  cp -r "$base" "$d"
  python3 - "$d" "$VICTIM" <<EOF || echo "hardening-sweep: could not craft $name" >&2
import json, os, sys, gzip
d, victim = sys.argv[1], sys.argv[2]
mp, tp = os.path.join(d, 'manifest.json'), os.path.join(d, 'topology.json')
m, t = json.load(open(mp)), json.load(open(tp))
e0 = m['entries'][0]
ok = [e for e in m['entries'] if e['status'] == 'ok']
def raw(path, text):
    open(os.path.join(d, path), 'w').write(text)
def bomb(path, mib):
    with gzip.open(os.path.join(d, path), 'wb', 9) as g:
        g.write(b'[')
        for _ in range(mib):
            g.write(b' ' * (1 << 20))
        g.write(b']')
def link(path, target):
    p = os.path.join(d, path)
    if os.path.lexists(p):
        if os.path.isdir(p) and not os.path.islink(p):
            import shutil; shutil.rmtree(p)
        else:
            os.remove(p)
    os.symlink(target, p)
def fifo(path):
    p = os.path.join(d, path)
    if os.path.lexists(p):
        os.remove(p)
    os.mkfifo(p)
$code
json.dump(m, open(mp, 'w'), indent=1) if m is not None else None
json.dump(t, open(tp, 'w'), indent=1) if t is not None else None
EOF
  echo "$d"
}

# ---- run: bad values of every option (dry runs planned for a recorded 8-GPU machine)
if wants run; then
  for opt in --pairs --sizes --paths --group --model --preset --staging-chunk; do
    for_values run run --dry-run --topology "$T8" -- "$opt"
  done
  for_values run run --dry-run --topology "$T8" --paths PARTITION -- --plans
  for_values run run --dry-run --topology "$T8" --paths SERVING -- --ttft-p99
  for_values run run --dry-run --topology "$T8" --paths SERVING -- --tpot-p99
  for_values run run --dry-run -- --topology
  # Without a GPU a run with a usable --out stops at the driver check, in one line: that is the answer.
  for_values run --also "CUDA is not available" run -- --out
  for_values run --also "CUDA is not available" run --report -- --charts
  add run "--pairs 1000 pairs" "--pairs|0-1" run --dry-run --topology "$T8" --pairs "$(printf '0-1,%.0s' $(seq 1 1000))0-1"
  add run "--pairs 9-9 (no such GPU)" "9" run --dry-run --topology "$T8" --pairs 9-9
  add run "--pairs 99999999999-0" "99999999999" run --dry-run --topology "$T8" --pairs 99999999999-0
  add run "--sizes 5000 sizes" "--sizes|4K" run --dry-run --topology "$T8" --sizes "$(printf '4K,%.0s' $(seq 1 5000))4K"
  add run "--sizes 3 (not a multiple of 4)" "3" run --dry-run --topology "$T8" --sizes 3
  add run "--sizes 1P (unknown unit)" "1P" run --dry-run --topology "$T8" --sizes 1P
  add run "--sizes 8388608T" "8388608T" run --dry-run --topology "$T8" --sizes 8388608T
  add run "--group 950 ranks" "950" run --dry-run --topology "$T8" --group "$(printf '0,%.0s' $(seq 1 949))0"
  add run "--group 1000" "1000" run --dry-run --topology "$T8" --group 1000
  add run "--group 0,,1" "0,,1" run --dry-run --topology "$T8" --group 0,,1
  add run "--paths 2000 words" "--paths|NCCL" run --dry-run --topology "$T8" --paths "$(printf 'NCCL,%.0s' $(seq 1 2000))NCCL"
  add run "--fork-groups with --fork-per-benchmark" "--fork" run --dry-run --topology "$T8" --fork-groups --fork-per-benchmark
  add run "unknown option" "--colour" run --dry-run --colour
  add run "--out under a file" "/dev/null" run --out /dev/null/x
fi

# ---- topology: crafted topology files, planned with run --dry-run --topology
if wants topology; then
  topo() { # topo NAME NEEDLE PYTHON-EDIT-OF-t (or RAW:text)
    local f="$F/topology-$1.json"
    if [[ "$3" == RAW:* ]]; then printf '%s' "${3#RAW:}" > "$f"
    else python3 - "$T8" "$f" <<EOF
import json, sys
t = json.load(open(sys.argv[1]))
$3
json.dump(t, open(sys.argv[2], 'w'), indent=1)
EOF
    fi
    add topology "$1" "${2:-$f}" run --dry-run --topology "$f"
  }
  topo empty "" "RAW:"
  topo null "" "RAW:null"
  topo array "" "RAW:[]"
  topo truncated "" "RAW:$(head -c 300 "$T8")"
  topo nan-literal "" "RAW:{\"gpus\": [NaN]}"
  topo no-gpus "" "del t['gpus']"
  topo gpus-empty "" "t['gpus'] = []"
  topo gpu-null "" "t['gpus'][0] = None"
  topo gpus-300 "" "t['gpus'] = [dict(t['gpus'][0], index=i) for i in range(300)]"
  topo memory-negative "" "t['gpus'][0]['memoryBytes'] = -1"
  topo memory-huge "" "t['gpus'][0]['memoryBytes'] = 10**30"
  topo memory-string "" "t['gpus'][0]['memoryBytes'] = 'lots'"
  topo memory-float "" "t['gpus'][0]['memoryBytes'] = 1.5"
  topo index-huge "" "t['gpus'][0]['index'] = 2**40"
  topo name-control "" "t['gpus'][0]['name'] = 'H200 \x1b]0;owned\x07\x1b[2J<script>'"
  topo name-long "" "t['gpus'][0]['name'] = 'N' * 100000"
  topo name-unicode "" "t['gpus'][0]['name'] = 'ＧＰＵ ü \u202e'"
  topo fingerprint-dots "" "t['fingerprint'] = '../../../x'"
  topo pairs-null "" "t['pairs'] = None"
  topo pair-link-number "" "t['pairs'][1]['link'] = 7"
  topo host-null "" "t['host'] = None"
  topo pcie-width-zero "" "t['gpus'][0]['pcieWidthMax'] = 0"
  topo numa-huge "" "t['gpus'][0]['numaNode'] = 99999999999"
  add topology "a folder" "$F" run --dry-run --topology "$F"
  add topology "missing file" "nowhere.json" run --dry-run --topology "$F/nowhere.json"
  mkfifo "$F/topology-fifo.json"
  add topology "a FIFO" "topology-fifo.json" run --dry-run --topology "$F/topology-fifo.json"
  add topology "/dev/zero" "/dev/zero" run --dry-run --topology /dev/zero
  add topology "without --dry-run" "--topology|--dry-run" run --topology "$T8"
fi

# ---- doctor: recorded machines and result folders
if wants doctor; then
  machine() { # machine NAME PYTHON (edits gpus.json g; d is the folder), echoing the folder
    local d="$F/machine-$1"
    cp -r "$MACHINE" "$d"
    python3 - "$d" "$VICTIM" <<EOF || echo "hardening-sweep: could not craft machine $1" >&2
import json, os, sys
d, victim = sys.argv[1], sys.argv[2]
gp = os.path.join(d, 'gpus.json')
g = json.load(open(gp))
$2
json.dump(g, open(gp, 'w'), indent=1) if g is not None else None
EOF
    echo "$d"
  }
  dm() { add doctor "$1" "${3:-$2}" doctor --machine "$2"; }
  dm "--machine ''" "" "''|empty"
  dm "missing folder" "$F/no-machine"
  dm "a file" "$T8"
  mkdir -p "$F/machine-empty"; dm "an empty folder" "$F/machine-empty"
  dm "gpus.json null" "$(machine null "g = None; open(gp, 'w').write('null')")"
  dm "gpus.json truncated" "$(machine cut "g = None; open(gp, 'w').write(open(gp).read()[:100])")"
  dm "gpus empty" "$(machine gpus-empty "g['gpus'] = []")"
  dm "300 GPUs" "$(machine gpus-300 "g['gpus'] = [dict(g['gpus'][0], index=i, pciBusId='%04x:%02x:00.0' % (1 + i // 128, 16 + i % 128)) for i in range(300)]")"
  dm "200 GPUs (time)" "$(machine gpus-200 "g['gpus'] = [dict(g['gpus'][0], index=i, pciBusId='%04x:%02x:00.0' % (1 + i // 128, 16 + i % 128)) for i in range(200)]")" "-"
  dm "name with escapes" "$(machine name "g['gpus'][0]['name'] = 'H100 \x1b]0;owned\x07\x1b[2J'")" "-"
  dm "bus id injection" "$(machine busid "g['gpus'][1]['pciBusId'] = '04:00.0; rm -rf /'")"
  dm "memory -1" "$(machine memory "g['gpus'][0]['memoryBytes'] = -1")"
  dm "memory 10^30" "$(machine memory-huge "g['gpus'][0]['memoryBytes'] = 10**30")"
  dm "index string" "$(machine index "g['gpus'][0]['index'] = 'zero'")"
  dm "numaNode huge" "$(machine numa "g['gpus'][0]['numaNode'] = 2**40")"
  dm "FIFO proc/cmdline" "$(machine fifo "os.remove(os.path.join(d, 'proc/cmdline')); os.mkfifo(os.path.join(d, 'proc/cmdline'))")" "-"
  dm "FIFO lspci-vvv.txt" "$(machine fifo-lspci "os.mkfifo(os.path.join(d, 'lspci-vvv.txt'))")" "lspci-vvv.txt"
  dm "FIFO gpus.json" "$(machine fifo-gpus "g = None; os.remove(gp); os.mkfifo(gp)")" "gpus.json"
  dm "link out of the tree" "$(machine link-out "os.remove(os.path.join(d, 'proc/cpuinfo')); os.symlink(victim + '/thesis.tex', os.path.join(d, 'proc/cpuinfo'))")" "-"
  dm "link loop in sys" "$(machine loop "os.symlink('loop', os.path.join(d, 'sys/devices/loop'))")" "-"
  dm "/dev/zero as a sysfs file" "$(machine dev-zero "os.remove(os.path.join(d, 'proc/cmdline')); os.symlink('/dev/zero', os.path.join(d, 'proc/cmdline'))")" "-"
  dm "2 MiB lspci" "$(machine big-lspci "open(os.path.join(d, 'lspci-vvv.txt'), 'w').write('x' * (2 << 20))")" "lspci"
  dm "deep tree" "$(machine deep "os.makedirs(os.path.join(d, 'sys/devices', *(['0000:00:01.0'] * 40)))")" "-"
  dm "unicode folder" "$(machine ünïcødé-ąę "")" "-"
  add doctor "--results missing" "nowhere" doctor --results "$F/nowhere"
  add doctor "--results a file" "$T8" doctor --results "$T8"
  add doctor "--lspci missing" "nowhere" doctor --lspci "$F/nowhere"
  mkfifo "$F/lspci-fifo"
  add doctor "--lspci FIFO" "lspci-fifo" doctor --lspci "$F/lspci-fifo"
  add doctor "--lspci /dev/zero" "/dev/zero" doctor --lspci /dev/zero
  add doctor "--lspci with --machine" "--lspci|--machine" doctor --machine "$MACHINE" --lspci "$T8"
fi

# ---- report: crafted result folders
REPORT_CASES=(
  # name | base | python | needle (default: the folder)
  "manifest missing|1|m = None; os.remove(mp)|"
  "manifest empty|1|m = None; raw('manifest.json', '')|"
  "manifest null|1|m = None; raw('manifest.json', 'null')|"
  "manifest array|1|m = None; raw('manifest.json', '[]')|"
  "manifest truncated|1|m = None; raw('manifest.json', json.dumps(json.load(open(mp)))[:500])|"
  "manifest NaN literal|1|m = None; raw('manifest.json', json.dumps(json.load(open(mp))).replace('\"seconds\": ', '\"seconds\": NaN, \"x\": ', 1))|"
  "manifest FIFO|1|m = None; fifo('manifest.json')|"
  "manifest a folder|1|m = None; os.remove(mp); os.mkdir(mp)|"
  "manifest 80 MB|1|m = None; raw('manifest.json', '{\"format\": \"p2pbench-results/2\", \"pad\": \"' + 'x' * (80 << 20) + '\"}')|"
  "format missing|1|del m['format']|"
  "format unknown|1|m['format'] = 'p2pbench-results/9'|"
  "suiteVersion 9|1|m['suiteVersion'] = '9.0.0'|"
  "startedAt missing|1|del m['startedAt']|"
  "startedAt garbage|1|m['startedAt'] = 'yesterday'|"
  "startedAt number|1|m['startedAt'] = 5|"
  "state missing|1|del m['state']|"
  "preset missing|1|del m['preset']|"
  "command with escapes|1|m['command'] = 'p2pbench \x1b[2J run <script>x</script>'|-"
  "fingerprint ../|1|m['fingerprint'] = '../../x'|"
  "entries null|1|m['entries'] = None|"
  "entries empty|1|m['entries'] = []|-"
  "entry null|1|m['entries'][0] = None|"
  "entry a string|1|m['entries'][0] = 'x'|"
  "combination null|1|e0['combination'] = None|"
  "kind unknown|1|e0['combination']['kind'] = 'warp-drive'|-"
  "kind null|1|e0['combination']['kind'] = None|"
  "params null|1|e0['combination']['params'] = None|"
  "param sizeBytes word|1|e0['combination']['params']['sizeBytes'] = 'big'|"
  "param pair 99-99|1|e0['combination']['params']['pair'] = '99-99'|-"
  "sizeBytes 0|1|e0['combination']['sizeBytes'] = 0|"
  "sizeBytes -4|1|e0['combination']['sizeBytes'] = -4|"
  "sizeBytes 2^62|1|e0['combination']['sizeBytes'] = 2**62|"
  "sizeBytes 10^30|1|e0['combination']['sizeBytes'] = 10**30|"
  "sizeBytes 1.5|1|e0['combination']['sizeBytes'] = 1.5|"
  "sizeBytes string|1|e0['combination']['sizeBytes'] = 'four'|"
  "id with ../|1|e0['combination']['id'] = '../../x'|"
  "id 10000 chars|1|e0['combination']['id'] = 'i' * 10000|"
  "status weird|1|e0['status'] = 'exploded'|-"
  "reason with escapes|1|m['entries'][1]['status'] = 'failed'; m['entries'][1]['reason'] = '\x1b[2J<script>x</script>'|-"
  "headline with escapes|1|e0['headline'] = '\x1b]0;owned\x07'|-"
  "seconds NaN string|1|e0['seconds'] = 'NaN'|-"
  "seconds -1|1|e0['seconds'] = -1|-"
  "bytesVerified -1|1|e0['bytesVerified'] = -1|-"
  "jmhFile absolute|1|e0['jmhFile'] = victim + '/jmh/001-peer-bw-CE_P2P_READ-0-0-4B.json'|"
  "jmhFile ../|1|e0['jmhFile'] = '../' * 8 + victim + '/jmh/x.json'|"
  "jmhFile missing|1|e0['jmhFile'] = 'jmh/none.json.gz'|"
  "jmhFile a folder|1|e0['jmhFile'] = 'jmh'|"
  "jmhFile empty string|1|e0['jmhFile'] = ''|"
  "jmh file truncated|1|p = os.path.join(d, e0['jmhFile']); b = open(p, 'rb').read(); open(p, 'wb').write(b[:len(b) // 2])|"
  "jmh file not gzip|1|p = os.path.join(d, e0['jmhFile']); b = gzip.open(p).read(); open(p, 'wb').write(b)|"
  "jmh file empty|1|open(os.path.join(d, e0['jmhFile']), 'wb').close()|"
  "jmh file a gzip bomb|1|bomb(e0['jmhFile'], 200)|"
  "jmh file FIFO|1|fifo(e0['jmhFile'])|"
  "jmh file link out|1|link(e0['jmhFile'], victim + '/jmh/001-peer-bw-CE_P2P_READ-0-0-4B.json')|"
  "jmh file link to /dev/zero|1|link(e0['jmhFile'], '/dev/zero')|"
  "jmh folder link out|1|link('jmh', victim + '/jmh')|"
  "jmh score NaN|1|p = os.path.join(d, e0['jmhFile']); j = json.loads(gzip.open(p).read()); j[0]['primaryMetric']['score'] = 'NaN'; gzip.open(p, 'wb').write(json.dumps(j).encode())|-"
  "jmh score -1e308|1|p = os.path.join(d, e0['jmhFile']); j = json.loads(gzip.open(p).read()); j[0]['primaryMetric']['score'] = -1e308; gzip.open(p, 'wb').write(json.dumps(j).encode())|-"
  "jmh rawData huge|1|p = os.path.join(d, e0['jmhFile']); j = json.loads(gzip.open(p).read()); j[0]['primaryMetric']['rawData'] = [[1e308] * 1000]; gzip.open(p, 'wb').write(json.dumps(j).encode())|-"
  "jmh an object|1|p = os.path.join(d, e0['jmhFile']); gzip.open(p, 'wb').write(b'{}')|"
  "samples link inside the folder|1|p = os.path.join(d, e0['samplesFile']); os.rename(p, p + '.real'); os.symlink(os.path.basename(p) + '.real', p)|-"
  "samples truncated|1|p = os.path.join(d, e0['samplesFile']); b = open(p, 'rb').read(); open(p, 'wb').write(b[:len(b) // 2])|"
  "samples a gzip bomb|1|bomb(e0['samplesFile'], 200)|"
  "samples FIFO|1|fifo(e0['samplesFile'])|"
  "samples link out|1|link(e0['samplesFile'], victim + '/thesis.tex')|"
  "samples values NaN|1|p = os.path.join(d, e0['samplesFile']); s = json.loads(gzip.open(p).read()); [b.__setitem__('laneGBps', ['NaN' for _ in b['laneGBps']]) for b in s['batches']]; gzip.open(p, 'wb').write(json.dumps(s).encode())|"
  "samples values -1|1|p = os.path.join(d, e0['samplesFile']); s = json.loads(gzip.open(p).read()); [b.__setitem__('laneGBps', [-1 for _ in b['laneGBps']]) for b in s['batches']]; gzip.open(p, 'wb').write(json.dumps(s).encode())|-"
  "samples 10^6 batches|1|p = os.path.join(d, e0['samplesFile']); s = json.loads(gzip.open(p).read()); s['batches'] = s['batches'][:1] * 1000000; gzip.open(p, 'wb').write(json.dumps(s).encode())|-"
  "topology missing|1|t = None; os.remove(tp)|"
  "topology FIFO|1|t = None; fifo('topology.json')|"
  "topology link out|1|t = None; link('topology.json', victim + '/thesis.tex')|"
  "GPU name with markup and escapes|1|t['gpus'][0]['name'] = 'NVIDIA \x01\x1b]0;owned\x07H200<script>alert(1)</script>'|-"
  "GPU name 100000 chars|1|t['gpus'][0]['name'] = 'N' * 100000|-"
  "collective group 1000 ranks|2|[e['combination']['params'].__setitem__('group', ','.join(['0'] * 1000)) for e in ok]|"
  "collective group x|2|[e['combination']['params'].__setitem__('group', 'x') for e in ok]|"
  "collective group 999|2|[e['combination']['params'].__setitem__('group', '999') for e in ok]|"
  "collective dtype unknown|2|[e['combination']['params'].__setitem__('dtype', 'FLOAT128') for e in ok]|"
)
if wants report || wants compare || wants migrate || wants whatif; then
  for spec in "${REPORT_CASES[@]}"; do
    IFS='|' read -r name base code needle <<< "$spec"
    [ "$base" = 1 ] && base="$RUN1" || base="$RUN2"
    dir="$(corrupt "r-$(printf '%s' "$name" | tr -c 'A-Za-z0-9.-' '_')" "$base" "$code")"
    add report "$name" "${needle:-$dir}" report "$dir" --out "$SANDBOX/out/report-$n"
  done
fi
if wants report; then
  ok1="$(corrupt ok1 "$RUN1" "")"
  for_values report report "$ok1" -- --out
  add report "--out on a file" "$T8" report "$ok1" --out "$T8"
  add report "--out /dev/null" "/dev/null" report "$ok1" --out /dev/null
  add report "no folder" "" report --out "$SANDBOX/out/none"
  add report "folder ''" "''|empty" report "" --out "$SANDBOX/out/empty"
  add report "--nvbandwidth missing" "nowhere" report "$ok1" --nvbandwidth "$F/nowhere" --out "$SANDBOX/out/nvb"
  add report "--nvbandwidth /dev/zero" "/dev/zero" report "$ok1" --nvbandwidth /dev/zero --out "$SANDBOX/out/nvb0"
  add report "--out with a jmh link to the victim" "-" report "$ok1" --out "$(mkdir -p "$SANDBOX/out/linked" && ln -sfn "$VICTIM/jmh" "$SANDBOX/out/linked/jmh" && echo "$SANDBOX/out/linked")"
  # An earlier report's index naming a file under jmh/, and jmh a link out: nothing may be removed through it.
  indexed() {
    mkdir -p "$1" && ln -sfn "$VICTIM/jmh" "$1/jmh"
    printf 'summary.md\njmh/001-peer-bw-CE_P2P_READ-0-0-4B.json\n' > "$1/.p2pbench-report"; echo "$1"
  }
  add report "--out: an index and a jmh link out" "-" report "$ok1" --out "$(indexed "$SANDBOX/out/indexed")"
  ln -sfn "$ok1" "$F/ok1-link"
  add report "the folder given through a link" "-" report "$F/ok1-link" --out "$SANDBOX/out/through-link"
fi

# ---- compare: crafted baselines and options
if wants compare; then
  ok1="$(corrupt ok1 "$RUN1" "")"
  base() { # base NAME SOURCE PYTHON (edits text s, or JSON j when SOURCE is .json); echoes the file
    local f="$F/base-$1.${2##*.}"
    python3 - "$2" "$f" <<EOF || echo "hardening-sweep: could not craft $1" >&2
import json, sys
src, dst = sys.argv[1], sys.argv[2]
s = open(src).read()
j = json.loads(s) if src.endswith('.json') else None
$3
open(dst, 'w').write(json.dumps(j) if j is not None else s)
EOF
    echo "$f"
  }
  cmp_case() { add compare "$1" "${3:-$2}" compare "$2" "$X8" --nccl-tests-op ALL_REDUCE --out "$SANDBOX/out/compare-$n"; }
  cmp_case "text size 10^23" "$(base t-huge "$NCCL_TXT" "s = s.replace('   268435456 ', '   99999999999999999999999 ')")"
  cmp_case "text size word" "$(base t-word "$NCCL_TXT" "s = s.replace('   268435456 ', '   big ')")" "-"
  cmp_case "text #wrong 10^30" "$(base t-wrong "$NCCL_TXT" "s = s.replace('361.00      0', '361.00      1000000000000000000000000000000')")"
  cmp_case "text busbw NaN" "$(base t-nan "$NCCL_TXT" "s = s.replace('357.42', 'nan')")" "-"
  cmp_case "text truncated" "$(base t-cut "$NCCL_TXT" "s = s[:len(s) // 2]")" "-"
  cmp_case "text host with escapes" "$(base t-host "$NCCL_TXT" "s = s.replace('synthetic-host', 'h\x1b]0;owned\x07')")" "-"
  cmp_case "text 100000 rows" "$(base t-rows "$NCCL_TXT" "ls = s.split(chr(10)); i = next(k for k, l in enumerate(ls) if l.strip().startswith('1048576')); s = chr(10).join(ls[:i] + [ls[i]] * 100000 + ls[i:])")" "-"
  cmp_case "text 20 MB" "$(base t-big "$NCCL_TXT" "s = s + ('#' + ' ' * 1000 + chr(10)) * 20000")" "-"
  cmp_case "json size 10^23" "$(base j-huge "$NCCL_JSON" "j['results'][-1]['size'] = 99999999999999999999999")"
  cmp_case "json size -1" "$(base j-neg "$NCCL_JSON" "j['results'][-1]['size'] = -1")"
  cmp_case "json size 0" "$(base j-zero "$NCCL_JSON" "j['results'][-1]['size'] = 0")"
  cmp_case "json size 1.5" "$(base j-float "$NCCL_JSON" "j['results'][-1]['size'] = 1.5")"
  cmp_case "json size string" "$(base j-str "$NCCL_JSON" "j['results'][-1]['size'] = 'big'")"
  cmp_case "json bus_bw string" "$(base j-bw "$NCCL_JSON" "j['results'][-1]['out_of_place']['bus_bw'] = 'fast'")" "-"
  cmp_case "json results null" "$(base j-null "$NCCL_JSON" "j['results'] = None")"
  cmp_case "json 1000 devices" "$(base j-dev "$NCCL_JSON" "j['config']['devices'] = [dict(j['config']['devices'][0], rank=i, device=i) for i in range(1000)]")" "-"
  cmp_case "json ngpus 10^9" "$(base j-ngpus "$NCCL_JSON" "j['config']['ngpus'] = 10**9; j['config']['devices'] = j['config']['devices'][:1]")" "-"
  cmp_case "json device name markup" "$(base j-name "$NCCL_JSON" "[x.__setitem__('device_info', '<script>\x1b[2J</script>') for x in j['config']['devices']]")" "-"
  nvb() { add compare "$1" "${3:-$2}" compare "$2" "$X8" --out "$SANDBOX/out/compare-$n"; }
  nvb "nvbandwidth bufferSize 0" "$(base n-zero "$NVB_JSON" "j['nvbandwidth']['bufferSize'] = 0")"
  nvb "nvbandwidth bufferSize -1" "$(base n-neg "$NVB_JSON" "j['nvbandwidth']['bufferSize'] = -1")"
  nvb "nvbandwidth bufferSize 2^60" "$(base n-huge "$NVB_JSON" "j['nvbandwidth']['bufferSize'] = 2**60")"
  nvb "nvbandwidth bufferSize string" "$(base n-str "$NVB_JSON" "j['nvbandwidth']['bufferSize'] = 'big'")"
  nvb "nvbandwidth ragged matrix" "$(base n-ragged "$NVB_JSON" "tc = j['nvbandwidth']['testcases']; [t.__setitem__('bandwidth_matrix', [['1'], ['1', '2', '3']]) for t in tc if 'bandwidth_matrix' in t]")" "-"
  nvb "nvbandwidth values NaN" "$(base n-nan "$NVB_JSON" "tc = j['nvbandwidth']['testcases']; [t.__setitem__('bandwidth_matrix', [['nan' for c in r] for r in t['bandwidth_matrix']]) for t in tc if 'bandwidth_matrix' in t]")" "-"
  for_values compare compare "$ok1" "$ok1" --out "$SANDBOX/out/thr" -- --threshold
  for_values compare compare "$ok1" "$ok1" --out "$SANDBOX/out/op" -- --nccl-tests-op
  for_values compare compare "$NVB_JSON" "$X8" --out "$SANDBOX/out/nvbs" -- --nvbandwidth-size
  add compare "baseline ','" "','|,|empty" compare "," "$ok1" --out "$SANDBOX/out/c1"
  add compare "candidates 'a,,b'" ",," compare "$ok1" "$ok1,,$ok1" --out "$SANDBOX/out/c2"
  add compare "baseline /dev/zero" "/dev/zero" compare /dev/zero "$ok1" --out "$SANDBOX/out/c3"
  mkfifo "$F/base-fifo.json"
  add compare "baseline FIFO" "base-fifo.json" compare "$F/base-fifo.json" "$ok1" --out "$SANDBOX/out/c4"
  add compare "one argument" "" compare "$ok1" --out "$SANDBOX/out/c5"
  mkdir -p "$SANDBOX/out/c-indexed" && ln -sfn "$VICTIM/jmh" "$SANDBOX/out/c-indexed/jmh"
  printf 'compare.md\njmh/001-peer-bw-CE_P2P_READ-0-0-4B.json\n' > "$SANDBOX/out/c-indexed/.p2pbench-report"
  add compare "--out: an index and a jmh link out" "-" compare "$ok1" "$ok1" --out "$SANDBOX/out/c-indexed"
  for name in "jmh file a gzip bomb" "sizeBytes 0" "startedAt missing" "GPU name with markup and escapes"; do
    dir="$F/r-$(printf '%s' "$name" | tr -c 'A-Za-z0-9.-' '_')"
    add compare "candidate: $name" "$dir" compare "$ok1" "$dir" --out "$SANDBOX/out/compare-$n"
  done
fi

# ---- migrate: crafted folders, converted in place (copies in the sandbox)
if wants migrate; then
  add migrate "''" "''|empty" migrate ""
  add migrate "missing" "nowhere" migrate "$F/nowhere"
  add migrate "a file" "$T8" migrate "$T8"
  for name in "jmhFile ../" "jmh folder link out" "jmh file link out" "samples link out" "jmh file FIFO" "manifest FIFO" \
      "jmh file a gzip bomb" "sizeBytes 0" "id with ../" "startedAt missing"; do
    src="$F/r-$(printf '%s' "$name" | tr -c 'A-Za-z0-9.-' '_')"
    dir="$F/m-$(basename "$src")"
    cp -a "$src" "$dir" 2>/dev/null
    add migrate "$name" "$dir" migrate "$dir"
  done
  one="$F/m-format1"; cp -r "$X8" "$one"
  add migrate "format 1 copy" "-" migrate "$one"
  cut="$F/m-format1-cut"; cp -r "$X8" "$cut"; f="$(ls "$cut"/jmh/*.json | head -n 1)"; head -c 100 "$f" > "$f.tmp" && mv "$f.tmp" "$f"
  add migrate "format 1 with a cut JMH file" "$cut" migrate "$cut"
  logs="$F/m-format1-log-out"; cp -r "$X8" "$logs"
  python3 - "$logs" "$VICTIM" <<'EOF'
import json, os, sys
d, victim = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(d, 'manifest.json')))
m['entries'][0]['logFile'] = '../' * 12 + victim.lstrip('/') + '/thesis.tex'
json.dump(m, open(os.path.join(d, 'manifest.json'), 'w'))
EOF
  add migrate "format 1 with a log named outside" "$logs" migrate "$logs"
fi

# ---- whatif: options and sources
if wants whatif; then
  for opt in --gpus --params --layers --hidden --tokens --bucket --micro-batches --compute-seconds --strategies \
      --reference --method --dtype --model; do
    if [ "$opt" = --reference ]; then for_values whatif whatif --out "$SANDBOX/out/w" -- "$opt"
    else for_values whatif whatif --reference all --out "$SANDBOX/out/w" -- "$opt"; fi
  done
  add whatif "--params 10^30" "1000000000000000000000000000000|--params" whatif --reference all --params 1000000000000000000000000000000 --layers 80 --hidden 8192 --tokens 4096 --out "$SANDBOX/out/w"
  add whatif "--gpus 1024 (the largest)" "-" whatif --reference all --gpus 1024 --extrapolate-gpus --out "$SANDBOX/out/w"
  add whatif "--micro-batches 2^31-1" "-" whatif --reference all --micro-batches 2147483647 --out "$SANDBOX/out/w"
  add whatif "--tokens 2^62" "-" whatif --reference all --tokens 4611686018427387904 --out "$SANDBOX/out/w"
  add whatif "source /dev/zero" "/dev/zero" whatif /dev/zero --out "$SANDBOX/out/w"
  add whatif "nccl-tests size 10^23" "$F/base-t-huge.txt" whatif "$F/base-t-huge.txt" --nccl-tests-op ALL_REDUCE --out "$SANDBOX/out/w"
  for name in "collective group 1000 ranks" "sizeBytes 0" "jmh file a gzip bomb" "startedAt missing"; do
    dir="$F/r-$(printf '%s' "$name" | tr -c 'A-Za-z0-9.-' '_')"
    add whatif "source: $name" "$dir" whatif "$dir" --out "$SANDBOX/out/whatif-$n"
  done
fi

# ------------------------------------------------------------------ run
snapshot() {
  { find "$VICTIM" -printf '%p %y %s %l\n' | sort; find "$VICTIM" -type f -exec md5sum {} + | sort
    git -C "$ROOT" status --porcelain --untracked-files=no; } 2>/dev/null | md5sum
}
# Files a report or comparison wrote (exit 0): charts well-formed, pages without a raw tag outside code
check_outputs() {
  python3 - "$@" <<'EOF'
import sys, os, re, xml.dom.minidom
bad = []
for root in sys.argv[1:]:
    for dirpath, _, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            if os.path.islink(p):
                continue
            if f.endswith('.svg'):
                try:
                    xml.dom.minidom.parse(p)
                except Exception as e:
                    bad.append(f + ' is not well-formed XML')
            elif f.endswith('.md') or f.endswith('.html'):
                text = open(p, encoding='utf-8', errors='replace').read()
                if re.search('[\x00-\x08\x0b-\x1f\x7f]', text):
                    bad.append(f + ' holds a control character')
                fence = False
                for line in text.split('\n'):
                    if f.endswith('.md') and line.startswith('```'):
                        fence = not fence
                    elif not fence and re.search('<script', line, re.I):
                        bad.append(f + ' holds a raw <script> tag')
                        break
print('; '.join(sorted(set(bad))))
EOF
}

before="$(snapshot)"
RESULTS="$SANDBOX/results.tsv"
: > "$RESULTS"
start_all=$(date +%s)
for d in "$CASES"/*/; do
  d="${d%/}"
  mapfile -d '' args < "$d/argv"
  family="$(cat "$d/family")"; name="$(cat "$d/name")"; needle="$(cat "$d/needle")"
  rm -rf "$WORK"; mkdir -p "$WORK"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # the JVM options are words
  (cd "$WORK" && exec timeout -k 5 "$LIMIT" java $JOPTS -cp "$CP" io.p2pbench.cli.Main "${args[@]}") \
    > "$d/out" 2> "$d/err" < /dev/null
  rc=$?
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  after="$(snapshot)"
  lines=$(grep -c '' "$d/err")
  first="$(head -n 1 "$d/err" | tr -d '\000-\010\013-\037' | cut -c1-300)"
  verdict=OK; why=""
  if [ "$after" != "$before" ]; then
    verdict=CRITICAL; why="a file outside the sandbox changed (victim $VICTIM or the checkout)"; before="$after"
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    verdict=CRITICAL; why="hang: killed after ${LIMIT} s"
  elif grep -q -e $'^\tat ' -e 'Exception in thread' -e 'internal error' "$d/err"; then
    verdict=SHORT; why="stack trace or internal error: $first"
  elif [ $rc -eq 0 ]; then
    if grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$d/out" "$d/err"; then
      verdict=SHORT; why="a control character on the terminal"
    else
      outs=(); for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = --out ] && outs+=("${args[i + 1]}"); done
      [ ${#outs[@]} -gt 0 ] && [ -d "${outs[0]}" ] && { o="$(check_outputs "${outs[@]}")"; [ -n "$o" ] && { verdict=SHORT; why="$o"; }; }
    fi
  elif [ $rc -ne 2 ]; then
    verdict=SHORT; why="exit $rc: $first"
  elif [ "$lines" -ne 1 ]; then
    verdict=SHORT; why="$lines lines on stderr: $first"
  elif [ "$needle" != "-" ] && [ -n "$needle" ]; then
    found=0; IFS='|' read -r -a alts <<< "$needle"
    for a in "${alts[@]}"; do [ -n "$a" ] && grep -qF -- "$a" "$d/err" && found=1; done
    [ $found -eq 0 ] && { verdict=SHORT; why="does not name '${alts[0]:0:40}': $first"; }
  fi
  if [ "$verdict" = OK ] && awk -v s="$secs" -v l="$SLOW" 'BEGIN { exit !(s > l) }'; then
    verdict=SHORT; why="took $secs s (more than $SLOW s)"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$family" "$verdict" "$rc" "$secs" "$name" "$why" >> "$RESULTS"
  printf '.' >&2
done
echo >&2

# ------------------------------------------------------------------ table
printf '\n%-10s %6s %6s %6s %9s\n' family cases ok short critical
for fam in "${FAMILIES[@]}"; do
  awk -F'\t' -v f="$fam" '$1 == f { c++; if ($2 == "OK") o++; else if ($2 == "SHORT") s++; else k++ }
    END { if (c) printf "%-10s %6d %6d %6d %9d\n", f, c, o, s, k }' "$RESULTS"
done
awk -F'\t' '{ c++; if ($2 == "OK") o++; else if ($2 == "SHORT") s++; else k++ }
  END { printf "%-10s %6d %6d %6d %9d\n", "all", c, o, s, k }' "$RESULTS"
printf '\n%d cases in %d s\n' "$(grep -c '' "$RESULTS")" "$(( $(date +%s) - start_all ))"
if grep -qv $'\tOK\t' "$RESULTS"; then
  printf '\nNot OK:\n'
  awk -F'\t' '$2 != "OK" { printf "  %-8s %-8s exit %-3s %5ss  %s: %s\n", $2, $1, $3, $4, substr($5, 1, 60), $6 }' "$RESULTS"
fi
grep -q $'\tCRITICAL\t' "$RESULTS" && exit 1
exit 0
