#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Faults injected into real runs, end to end, and what the user is left with:
#   - a disk that fills (tests/support/fault_fs.c, preloaded) during a run writing
#     snapshots, series and checkpoints, and during a headless movie;
#   - SIGTERM and SIGINT during a run (and the continued run ends bit for bit where an
#     uninterrupted one does), during a headless movie, and to the window;
#   - a truncated and a corrupted checkpoint given to --resume;
#   - NVRTC missing, where CUDA is available.
# Each case checks the message, the exit code, a usable last checkpoint, and that no file
# under a final name is partial.
#   usage: faults.sh CELLFORGE_SIM CELLFORGE|none LIBFAULT_FS
set -u
sim="$1"
app="$2"
faultfs="$3"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
ok() { echo "ok   $1"; passes=$((passes + 1)); }
bad() { echo "FAIL $1"; shift; for l in "$@"; do echo "    $l"; done; failures=$((failures + 1)); }
# check NAME CONDITION-COMMAND... : a pass when the command succeeds.
check() { local n="$1"; shift; if "$@"; then ok "$n"; else bad "$n" "failed: $*"; fi; }
has() { grep -qE -- "$2" <<<"$1"; }

# A small growing spheroid that writes everything a run writes.
cat >"$work/spheroid.toml" <<'TOML'
model = "spheres"
seed = 7
steps = 400
[output]
dir = "out"
snapshot_every = 10
series_every = 5
checkpoint_every = 50
[parameters.init]
layout = "ball"
count = 120
radius = 90.0
age_spread = 1.0
[parameters.growth]
rate = 3000.0
TOML

# Only complete files under final names: no temporaries left, every checkpoint and snapshot
# named in the XDMF index reads, the series has only whole rows.
no_partial_files() {
  local dir="$1"
  if ls "$dir" | grep -qE '\.tmp|\.part'; then echo "temporary files left: $(ls "$dir")"; return 1; fi
  if [ -f "$dir/series.csv" ]; then
    local cols
    cols=$(head -1 "$dir/series.csv" | tr -cd , | wc -c)
    if awk -F, -v c="$cols" 'NF - 1 != c { bad = 1 } END { exit !bad }' "$dir/series.csv"; then
      echo "series.csv has a partial row"; return 1
    fi
    [ -z "$(tail -c1 "$dir/series.csv")" ] || { echo "series.csv does not end with a newline"; return 1; }
  fi
  if command -v h5ls >/dev/null; then
    for h5 in "$dir"/*.h5; do
      [ -e "$h5" ] || continue
      h5ls "$h5" >/dev/null 2>&1 || { echo "$h5 does not read"; return 1; }
    done
  fi
  return 0
}

# ---- a disk that fills during a run --------------------------------------------------------
mkdir -p "$work/full"
out=$(cd "$work" && CELLFORGE_FAULT_DISK_DIR="$work/full" CELLFORGE_FAULT_DISK_BYTES=400000 \
  LD_PRELOAD="$faultfs" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
  "$sim" run spheroid.toml --backend cpu --out "$work/full" 2>&1)
code=$?
if [ "$code" -eq 3 ] && has "$out" "No space left on device" && has "$out" "$work/full/"; then
  ok "disk-full-run: exit 3, names the file and 'No space left on device'"
else
  bad "disk-full-run: exit $code (want 3)" "$(tail -3 <<<"$out")"
fi
why=$(no_partial_files "$work/full") && ok "disk-full-run: no partial file under a final name" ||
  bad "disk-full-run: partial files" "$why"
if [ -f "$work/full/checkpoint.cfchk" ]; then
  out=$("$sim" run "$work/spheroid.toml" --backend cpu --resume "$work/full/checkpoint.cfchk" \
    --steps 400 --out "$work/full-resumed" 2>&1)
  check "disk-full-run: the last checkpoint continues the run (freed disk)" has "$out" "completed"
else
  bad "disk-full-run: no checkpoint was kept" "$(ls "$work/full")"
fi
grep -q '"status": "failed"' "$work/full/run.json" 2>/dev/null &&
  ok "disk-full-run: run.json says failed" ||
  echo "note disk-full-run: run.json could not be written either (the disk was full)"

# ---- signals during a run; the continued run ends where an uninterrupted one does ------------
"$sim" run "$work/spheroid.toml" --backend cpu --out "$work/straight" >/dev/null 2>&1
for sig in TERM INT; do
  d="$work/sig$sig"
  "$sim" run "$work/spheroid.toml" --backend cpu --steps 100000 --out "$d" >"$d.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do  # until it has written some rows (at most 10 s)
    [ "$(cat "$d/series.csv" 2>/dev/null | wc -l)" -gt 20 ] && break
    sleep 0.1
  done
  kill -"$sig" "$pid"
  wait "$pid"
  code=$?
  out=$(cat "$d.log")
  if [ "$code" -eq 130 ] && has "$out" "interrupted at step [0-9]+; checkpoint .*checkpoint.cfchk" &&
    grep -q '"status": "interrupted"' "$d/run.json"; then
    ok "SIG$sig-run: exit 130, the step and the checkpoint named, run.json interrupted"
  else
    bad "SIG$sig-run: exit $code (want 130)" "$(tail -2 <<<"$out")"
  fi
  why=$(no_partial_files "$d") && ok "SIG$sig-run: no partial file" || bad "SIG$sig-run" "$why"
  step=$(grep -oE 'interrupted at step [0-9]+' <<<"$out" | grep -oE '[0-9]+')
  if [ -n "$step" ]; then
    final=$((step + 60))
    "$sim" run "$work/spheroid.toml" --backend cpu --resume "$d/checkpoint.cfchk" \
      --steps "$final" --out "$d" >/dev/null 2>&1
    "$sim" run "$work/spheroid.toml" --backend cpu --steps "$final" --out "$d-straight" \
      >/dev/null 2>&1
    if cmp -s "$d/checkpoint.cfchk" "$d-straight/checkpoint.cfchk"; then
      ok "SIG$sig-run: stopped at step $step, continued to $final: the same checkpoint as a run never stopped, byte for byte"
    else
      bad "SIG$sig-run: the continued run's checkpoint differs from the uninterrupted one"
    fi
  else
    bad "SIG$sig-run: no step named"
  fi
done

# ---- a damaged checkpoint given to --resume ---------------------------------------------------
size=$(stat -c %s "$work/straight/checkpoint.cfchk")
head -c $((size / 2)) "$work/straight/checkpoint.cfchk" >"$work/truncated.cfchk"
out=$("$sim" run "$work/spheroid.toml" --resume "$work/truncated.cfchk" --out "$work/t" 2>&1)
code=$?
[ "$code" -eq 2 ] && has "$out" "truncated.cfchk.*truncated" &&
  ok "truncated-checkpoint: exit 2, names the file and says truncated" ||
  bad "truncated-checkpoint: exit $code" "$out"
cp "$work/straight/checkpoint.cfchk" "$work/flipped.cfchk"
printf '\xff' | dd of="$work/flipped.cfchk" bs=1 seek=$((size - 100)) conv=notrunc 2>/dev/null
out=$("$sim" run "$work/spheroid.toml" --resume "$work/flipped.cfchk" --out "$work/f" 2>&1)
code=$?
[ "$code" -eq 2 ] && has "$out" "flipped.cfchk.*checksum" &&
  ok "corrupted-checkpoint: exit 2, names the file and the checksum that fails" ||
  bad "corrupted-checkpoint: exit $code" "$out"

# ---- headless movies: a disk that fills, and Ctrl-C -------------------------------------------
movies=1
if [ "$app" != none ] && [ -x "$app" ] && "$app" --headless "$work/spheroid.toml" --backend cpu \
  --steps 1 --size 64x64 --record "$work/probe.mp4" 2>&1 | grep -q "no movie support"; then
  echo "skip movie cases: this build has no movie support (FFmpeg)"
  movies=0
fi
if [ "$app" != none ] && [ -x "$app" ] && [ "$movies" = 1 ]; then
  mkdir -p "$work/movie"
  out=$(CELLFORGE_FAULT_DISK_DIR="$work/movie" CELLFORGE_FAULT_DISK_BYTES=60000 \
    LD_PRELOAD="$faultfs" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
    "$app" --headless "$work/spheroid.toml" --backend cpu --steps 300 --every 2 --size 320x240 \
    --record "$work/movie/m.mp4" 2>&1)
  code=$?
  if [ "$code" -eq 3 ] && has "$out" "m.mp4.*No space left on device" &&
    has "$out" "incomplete movie was removed"; then
    ok "disk-full-movie: exit 3, names the movie, the reason and the frames"
  else
    bad "disk-full-movie: exit $code (want 3)" "$(tail -3 <<<"$out")"
  fi
  [ -z "$(ls "$work/movie")" ] && ok "disk-full-movie: no partial movie left" ||
    bad "disk-full-movie: files left" "$(ls "$work/movie")"

  "$app" --headless "$work/spheroid.toml" --backend cpu --steps 100000 --every 1 --size 320x240 \
    --record "$work/sig.mp4" >"$work/sigmovie.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 150); do [ -f "$work/sig.mp4.part" ] && break; sleep 0.1; done
  sleep 2
  kill -INT "$pid"
  wait "$pid"
  code=$?
  if [ "$code" -eq 130 ] && [ -f "$work/sig.mp4" ] && [ ! -e "$work/sig.mp4.part" ]; then
    if command -v ffprobe >/dev/null; then
      frames=$(ffprobe -v error -count_frames -select_streams v:0 \
        -show_entries stream=nb_read_frames -of csv=p=0 "$work/sig.mp4")
      [ "${frames:-0}" -gt 0 ] && ok "SIGINT-movie: exit 130, the movie plays ($frames frames)" ||
        bad "SIGINT-movie: the movie does not play" "$(cat "$work/sigmovie.log")"
    else
      ok "SIGINT-movie: exit 130, the movie finished (no ffprobe to play it)"
    fi
  else
    bad "SIGINT-movie: exit $code (want 130), files: $(ls "$work" | grep sig)" "$(tail -2 "$work/sigmovie.log")"
  fi
fi

# ---- the window: no OpenGL, and SIGTERM ---------------------------------------------------
if [ "$app" != none ] && [ -x "$app" ]; then
  if "$app" --help 2>&1 | grep -q -- --grab-window; then
    # A display without OpenGL: a clear message and exit 2, not a crash in Qt's repaint.
    out=$(XDG_CONFIG_HOME="$work/config" QT_QPA_PLATFORM=offscreen timeout 60 \
      "$app" "$work/spheroid.toml" --backend cpu 2>&1)
    code=$?
    [ "$code" -eq 2 ] && has "$out" "no OpenGL 4.5 core context.*--headless" &&
      ok "no-gl-window: exit 2, says why and what to run instead" ||
      bad "no-gl-window: exit $code (want 2)" "$(tail -2 <<<"$out")"
  fi
  if command -v Xvfb >/dev/null && "$app" --help 2>&1 | grep -q -- --grab-window; then
    display=":$((200 + RANDOM % 300))"
    Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb=$!
    sleep 1
    DISPLAY="$display" XDG_CONFIG_HOME="$work/config" \
      "$app" "$work/spheroid.toml" --backend cpu --play >"$work/window.log" 2>&1 &
    pid=$!
    sleep 5
    kill -TERM "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid"
      bad "SIGTERM-window: still open 10 s after SIGTERM"
    else
      wait "$pid"
      code=$?
      [ "$code" -eq 130 ] && grep -q "interrupted; closing the window" "$work/window.log" &&
        ok "SIGTERM-window: the window closes, exit 130" ||
        bad "SIGTERM-window: exit $code (want 130)" "$(tail -2 "$work/window.log")"
    fi
    kill "$xvfb" 2>/dev/null
  fi
else
  echo "skip window cases: this build has no cellforge application"
fi

# ---- NVRTC missing (CUDA machines) ------------------------------------------------------------
if "$sim" backends 2>/dev/null | grep -qE '^cuda +available'; then
  out=$(CELLFORGE_NVRTC=/nonexistent/libnvrtc.so.13 "$sim" run cardiac-aliev-panfilov \
    --backend cuda --steps 10 --out "$work/nvrtc" 2>&1)
  code=$?
  [ "$code" -ne 0 ] && [ "$code" -ne 1 ] && has "$out" "NVRTC not found.*nonexistent" &&
    ok "nvrtc-missing: exit $code, says NVRTC was not found and where it looked" ||
    bad "nvrtc-missing: exit $code" "$(tail -3 <<<"$out")"
else
  echo "skip nvrtc-missing: CUDA is not available here"
fi

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
