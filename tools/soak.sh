#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The soak: the desktop window runs one scenario of each model family for MINUTES under
# Xvfb while its soak driver (gui/soak_driver.hpp) edits a live parameter every 15 s,
# records a movie one minute in three (each checked to read back, then deleted), resets
# every 10 minutes and samples resident memory, threads and open files every 10 s. All
# models run at once, each on its own X server; a table last. Exit 0 when every model
# passed: no error logged, every movie readable, memory growth after the warm-up within
# the bound.
#   usage: tools/soak.sh [MINUTES] [OUT] [BACKEND]   (defaults: 60, build/soak, cpu)
#   build first: cmake --preset default && cmake --build --preset default
#   environment: SOAK_SCENARIOS (names or files, default one per model family),
#                SOAK_RSS_BOUND (MiB, default 32), SOAK_NICE (default 10)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
minutes=${1:-60}
out=$(realpath -m "${2:-$root/build/soak}")
backend=${3:-cpu}
bin=$root/build/default/gui/cellforge
scenarios=${SOAK_SCENARIOS:-"welcome cardiac-aliev-panfilov epidermis-network gliding-single-ring lattice-conversion-cell"}
bound=${SOAK_RSS_BOUND:-32}
[ -x "$bin" ] || { echo "soak: $bin not built (cmake --build --preset default)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "soak: xvfb-run missing (apt install xvfb)" >&2; exit 2; }
mkdir -p "$out"
echo "soak: $minutes min each, backend $backend, scenarios: $scenarios; logs in $out"

pids=()
for s in $scenarios; do
  name=$(basename "$s" .toml)
  # A fresh settings folder: the first-start layout, no state shared between the windows.
  XDG_CONFIG_HOME="$out/$name.config" nice -n "${SOAK_NICE:-10}" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" "$s" --backend "$backend" \
    --soak "$minutes" --soak-log "$out/$name.csv" --soak-rss-bound "$bound" \
    >"$out/$name.log" 2>&1 &
  pids+=($!)
  sleep 2  # xvfb-run -a picks a free display number; give each one time to take it
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done

printf '\n%-28s %7s %6s %6s %5s %6s %6s %8s %8s %7s %9s %8s %s\n' scenario minutes step edits recs frames errors rss_warm rss_end growth slope/h rss_rec result
for s in $scenarios; do
  name=$(basename "$s" .toml)
  j="$out/$name.json"
  if [ ! -f "$j" ]; then
    printf '%-28s no summary (the window did not finish; see %s)\n' "$name" "$out/$name.log"
    status=1
    continue
  fi
  # rss_warm/rss_end: medians while not recording (first and last tenth after the warm-up);
  # slope/h: least-squares trend of those samples; rss_rec: the most while recording.
  python3 - "$j" "$name" "$out/$name.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[3])))
end = float(rows[-1]["seconds"])
idle = [(float(r["seconds"]), float(r["rss_mib"])) for r in rows
        if r["recording"] == "0" and float(r["seconds"]) >= 0.1 * end]
rec = [float(r["rss_mib"]) for r in rows if r["recording"] == "1"]
slope = 0.0
if len(idle) > 2:
    mx = sum(x for x, _ in idle) / len(idle)
    my = sum(y for _, y in idle) / len(idle)
    slope = 3600 * sum((x - mx) * (y - my) for x, y in idle) / sum((x - mx) ** 2 for x, _ in idle)
print(f"{sys.argv[2]:<28} {d['minutes']:7.1f} {d['last_step']:6d} {d['edits']:6d} "
      f"{d['recordings']:5d} {d['frames_recorded']:6d} {d['errors_logged']:6d} "
      f"{d['rss_after_warmup_mib']:8.0f} {d['rss_end_mib']:8.0f} {d['rss_growth_mib']:+7.1f} "
      f"{slope:+9.1f} {max(rec) if rec else 0:8.0f} {'PASS' if d['pass'] else 'FAIL'}")
PY
done
exit $status
