#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# docs/reference/scenario-file.md must be what `cellforge-sim params --markdown` prints now,
# so the scenario-file reference cannot drift from the parameter declarations.
#   usage: scenario_reference.sh path/to/cellforge-sim path/to/docs/reference/scenario-file.md
set -u
sim="$1"
committed="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! "$sim" params --markdown >"$work/generated.md" 2>"$work/stderr"; then
  echo "FAIL cellforge-sim params --markdown exited with an error:"
  cat "$work/stderr"
  exit 1
fi
# Guard against a vacuous pass: the output must hold the file section and model tables.
if ! grep -q '^## The scenario file' "$work/generated.md" ||
   ! grep -q '^### \[parameters\.' "$work/generated.md"; then
  echo "FAIL the generated reference lacks its sections:"
  head -20 "$work/generated.md"
  exit 1
fi
if [ ! -f "$committed" ]; then
  echo "FAIL $committed does not exist"
  exit 1
fi
if ! diff -u "$committed" "$work/generated.md"; then
  echo
  echo "FAIL $committed is out of date with the parameter declarations (diff above:"
  echo "     - committed, + generated). Regenerate it from the repository root with"
  echo "       build/cpu/sim/cli/cellforge-sim params --markdown > docs/reference/scenario-file.md"
  echo "     (any build directory's cellforge-sim will do) and commit the result."
  exit 1
fi
echo "ok   $committed is current ($(wc -l <"$committed") lines)"
