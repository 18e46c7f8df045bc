#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The layering check fails, naming file and line, on each kind of forbidden include, in a
# small tree made here: a model included by render/, Qt in app/, one model including
# another, a run-layer header in sim/io, and a source folder with no row in the table.
set -u
checker="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mk() { mkdir -p "$work/$(dirname "$1")"; printf '%s\n' "${@:2}" >"$work/$1"; }
mk sim/models/lattice/lattice_model.hpp '#pragma once'
mk sim/models/spheres/spheres_model.cpp '#include "sim/core/params.hpp"' \
  '#include "sim/models/lattice/lattice_model.hpp"'
mk sim/run/runner.hpp '#pragma once'
mk sim/io/checkpoint.cpp '#include "sim/core/errors.hpp"' '#include "sim/run/runner.hpp"'
mk render/point_cloud.cpp '#include "sim/core/views.hpp"' \
  '#include "sim/models/lattice/lattice_model.hpp"'
mk app/cloud_upload.cpp '#include "render/point_cloud.hpp"' '#include <QWidget>'
mk gui/viewport.cpp '#include "app/cloud_upload.hpp"' '#include <QOpenGLWidget>'
mk sim/newlayer/thing.cpp '#include "sim/core/errors.hpp"'

out=$(python3 "$checker" "$work")
rc=$?
failures=0
want() {  # want PATTERN: exactly one line of the report matches
  local n
  n=$(grep -cE -- "$1" <<<"$out")
  if [ "$n" -ne 1 ]; then
    echo "FAIL: $n lines match '$1' (want 1)"
    failures=$((failures + 1))
  fi
}
want "^render/point_cloud.cpp:2: includes 'sim/models/lattice/lattice_model.hpp' \(sim/models/\*\), which render may not include"
want "^app/cloud_upload.cpp:2: includes <QWidget>: Qt does not belong in app"
want "^sim/models/spheres/spheres_model.cpp:2: .*model 'spheres' may not include model 'lattice'"
want "^sim/io/checkpoint.cpp:2: includes 'sim/run/runner.hpp' \(sim/run\), which sim/io may not include"
want "^sim/newlayer/thing.cpp:1: folder 'sim/newlayer' has no row"
want "^check_layering: 5 forbidden include"
[ "$rc" -eq 1 ] || { echo "FAIL: exit status $rc (want 1)"; failures=$((failures + 1)); }
echo "$out" | sed 's/^/    /'
[ "$failures" -eq 0 ] && echo "the checker refuses every planted include" || exit 1
