#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A program's man page, made by help2man from its own --help (every subcommand's options
# included, through --help-all where the program has subcommands), so the page never
# disagrees with the program. The build runs it (cmake/CellforgePackaging.cmake):
#   usage: packaging/man/make-man.sh PROGRAM INCLUDE.h2m OUT.1.gz
# help2man calls this script back as the program (CELLFORGE_MAN_PROGRAM set): the help text
# then gets section headings help2man understands (one per subcommand, "Exit status").
set -euo pipefail
if [[ -n ${CELLFORGE_MAN_PROGRAM:-} ]]; then
  program=$CELLFORGE_MAN_PROGRAM
  [[ ${1:-} == --version ]] && exec "$program" --version
  help=--help
  "$program" --help | grep -q -- '--help-all' && help=--help-all
  "$program" "$help" | awk '
    NR == 1 { next }  # "name: summary", which the page has as its NAME line
    /^Exit codes: / { sub(/^Exit codes: /, ""); exitcodes = $0; next }
    /^Subcommands:$/ { sub_ = 1; next }
    sub_ && /^[a-z0-9]+$/ { print ""; print "Command " $1 ":"; getline; print; print ""; next }
    sub_ && /^  (Positionals|Options):$/ { next }
    sub_ { sub(/^  /, ""); print; next }
    { print }
    END { if (exitcodes != "") { print ""; print "Exit status:"; print "  " exitcodes } }'
  exit 0
fi
[[ $# -eq 3 ]] || { echo "usage: $0 PROGRAM INCLUDE.h2m OUT.1.gz" >&2; exit 2; }
program=$(realpath "$1")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
CELLFORGE_MAN_PROGRAM=$program help2man --no-info --help-option=--help-all \
  --include="$2" --output="$tmp" "$(realpath "$0")"
# -n: no timestamp or name in the gzip header, so the package is reproducible.
gzip -9n <"$tmp" >"$3"
