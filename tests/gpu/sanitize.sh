#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every GPU-labelled test of a built tree under NVIDIA's compute-sanitizer (memcheck:
# out-of-bounds and misaligned device accesses, leaks of device memory, API errors;
# racecheck: shared-memory hazards; synccheck, initcheck likewise), several tests at a
# time, each with a time limit. A table last: per test, the exit code and the sanitizer's
# summary. Exit 0 when every test finished clean.
# API errors are not reported: several tests provoke them on purpose (an allocation of
# 2^31 cells, an invalid device ordinal, a GL registration outliving its context) and
# check that they become clear messages.
#   usage: tests/gpu/sanitize.sh BUILD_DIR TOOL [PARALLEL] [SECONDS_PER_TEST] [TEST_REGEX]
#   e.g.   tests/gpu/sanitize.sh build/gpu memcheck 4 300
set -uo pipefail
build=$1
tool=$2
parallel=${3:-4}
limit=${4:-300}
out="${OUT:-$PWD/gpu-out}/sanitize-$tool"
mkdir -p "$out"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$cs" ] || { echo "compute-sanitizer not found" >&2; exit 2; }

# The tests' commands as ctest has them (executable, gtest filter), one per line.
select=${5:-.}
ctest --test-dir "$build" -L gpu -R "$select" --show-only=json-v1 >"$out/tests.json"
python3 - "$out/tests.json" >"$out/commands.txt" <<'PY'
import json, shlex, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    cmd = t.get("command")
    if not cmd:
        continue
    cwd = next((p["value"] for p in t.get("properties", []) if p["name"] == "WORKING_DIRECTORY"), ".")
    print(t["name"], shlex.quote(cwd), " ".join(shlex.quote(c) for c in cmd), sep="\t")
PY

extra="--report-api-errors no"
case $tool in
  memcheck) extra="$extra --leak-check full" ;;
esac
export CELLFORGE_CUDA_SYNC=1  # faults are reported against the kernel that made them
run_one() {
  local name=$1 cwd=$2 cmd=$3
  local log="$out/$name.log"
  (cd "$(eval echo "$cwd")" && eval timeout "$limit" "$cs" --tool "$tool" $extra --error-exitcode 99 \
     --print-limit 20 "$cmd") >"$log" 2>&1
  local rc=$?
  local summary
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard" "$log" | tail -1)
  local tests
  tests=$(grep -E "^\[  PASSED  \]|^\[  FAILED  \]" "$log" | head -1)
  printf '%-34s rc=%-3s %-40s %s\n' "$name" "$rc" "${summary:-no summary}" "$tests" >"$out/$name.row"
}
report() {
  echo "================ compute-sanitizer --tool $tool ================"
  local status=0 name
  while IFS=$'\t' read -r name _; do
    if [ -f "$out/$name.row" ]; then
      cat "$out/$name.row"
      grep -qE "rc=0 .*(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)" "$out/$name.row" ||
        status=1
    else
      printf '%-34s unfinished\n' "$name"
      status=1
    fi
  done <"$out/commands.txt"
  # One file to carry back: the table and every log.
  tar -czf "$out.logs.tgz" -C "$(dirname "$out")" "$(basename "$out")" 2>/dev/null
  return $status
}
export -f run_one
export out tool extra limit cs
# Stopped from outside (a time limit on the whole run): still leave the table.
trap 'report | tee "$out.txt"; exit 1' TERM INT
tr '\t' '\037' <"$out/commands.txt" |
  xargs -P "$parallel" -d '\n' -I{} bash -c 'IFS=$'"'"'\037'"'"' read -r n c m <<<"$1"; run_one "$n" "$c" "$m"' _ {}

report | tee "$out.txt"
exit "${PIPESTATUS[0]}"
