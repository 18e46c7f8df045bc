#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `cellforge --headless` captions: --title and --timestamp/--no-timestamp change the image
# (the time stamp is on by default), a bad title or a missing argument is bad input (exit 2)
# with a message naming the option, and a missing font file is a failure (exit 3) naming
# the file and the Debian package that installs it.
#   usage: headless_captions.sh path/to/cellforge path/to/assets/scenarios
set -u
app="$1"
scenarios="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { "$app" --headless "$scenarios/epidermis-movement.toml" --steps 10 --every 10 \
  --size 320x180 "$@" 2>&1; }
out=$(run --screenshot "$work/default.png")
rc=$?
if grep -q "no headless OpenGL" <<<"$out"; then
  echo "skipped: no headless OpenGL here"; exit 0
fi
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; else echo "ok: $2"; fi; }
check '[ $rc -eq 0 ] && [ -s "$work/default.png" ]' "default run writes an image ($out)"
out=$(run --screenshot "$work/title.png" --title "Epidermis, 10 steps")
check '[ $? -eq 0 ] && [ -s "$work/title.png" ]' "--title runs ($out)"
check '! cmp -s "$work/default.png" "$work/title.png"' "--title changes the image"
out=$(run --screenshot "$work/plain.png" --no-timestamp)
check '[ $? -eq 0 ]' "--no-timestamp runs ($out)"
check '! cmp -s "$work/default.png" "$work/plain.png"' "the time stamp is on by default"
out=$(run --screenshot "$work/on.png" --timestamp)
check 'cmp -s "$work/default.png" "$work/on.png"' "--timestamp is the default"
out=$(run --screenshot "$work/bad.png" --title $'two\nlines')
rc=$?
check '[ $rc -eq 2 ] && grep -q "error: --title: the title holds a control character" <<<"$out"' \
  "a title with a line break is bad input: $out"
check '[ ! -e "$work/bad.png" ]' "no image for bad input"
out=$(run --screenshot "$work/bad.png" --title)
rc=$?
check '[ $rc -eq 2 ] && grep -q -- "--title" <<<"$out"' "--title without text is bad input: $out"
out=$(CELLFORGE_FONT=/nonexistent/font.ttf run --screenshot "$work/nofont.png")
rc=$?
check '[ $rc -eq 3 ] && grep -q "/nonexistent/font.ttf does not exist: install the Debian package fonts-dejavu-core" <<<"$out"' \
  "a missing font names the file and the package: $out"
[ "$fail" -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit "$fail"
