#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The programs' promises to scripts (README, "Exit codes"): 2 for bad input -- a scenario, a
# parameter, an option, or a file they name (SBML, CellML, model, mesh, checkpoint), missing
# or refused -- 3 for a run that fails, each message printed once and naming the file (with
# its line where the parser gives one) or the parameter and its range; a failed run keeps its
# last checkpoint. Both programs: cellforge-sim (run, sweep, bench, cellml2cfm) and
# cellforge --headless (skipped where there is no headless OpenGL).
#   usage: exit_codes.sh path/to/cellforge-sim path/to/assets/scenarios [path/to/cellforge]
set -u
sim=$(realpath "$1")  # absolute: the cases run in a scratch folder
scenarios=$(realpath "$2")
app="${3:-none}"
[ "$app" = none ] || app=$(realpath "$app")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0

# expect NAME CODE PATTERN -- command...: the exit code; PATTERN (naming the file or the
# parameter) on exactly one line of stdout+stderr; and, unless CODE is 0, exactly one line
# where the program says that it stopped ("PROGRAM: error: ..." or "... run failed: ...").
expect() {
  local name="$1" code="$2" pattern="$3"
  shift 4
  local out got hits said want_said=1
  out=$("$@" 2>&1)
  got=$?
  [ "$code" -eq 0 ] && want_said=0
  hits=$(grep -cE -- "$pattern" <<<"$out")
  said=$(grep -cE -- '^cellforge(-sim)?: (error: |run failed: |cannot start the run: )' <<<"$out")
  if [ "$got" -ne "$code" ] || [ "$hits" -ne 1 ] || [ "$said" -ne "$want_said" ]; then
    echo "FAIL $name: exit $got (want $code), lines with the message: $hits (want 1)," \
      "lines saying it stopped: $said (want $want_said); output:"
    echo "$out" | sed 's/^/    /' | head -8
    failures=$((failures + 1))
  else
    echo "ok   $name"
    passes=$((passes + 1))
  fi
}

# ---- inputs: scenarios naming SBML, CellML, model and mesh files, good and bad --------------
cd "$work" || exit 1
lattice() {  # lattice FILE [LINES]: a small lattice scenario with more parameter lines
  cat >"$1" <<EOF
model = "lattice"
seed = 5
steps = 5
[output]
dir = "out"
snapshot_every = 0
checkpoint_every = 0
[parameters.lattice]
nx = 8
ny = 8
nz = 8
lambda = 125.0
tau = 10000000.0
layout = "byte16"
[parameters.species]
count = 3
d1 = 0.75
d2 = 0.75
d3 = 0.75
n1 = 100
n2 = 100
n3 = 0
[parameters.tracking]
per_species = 0
${2:-}
EOF
}
lattice sbml-missing.toml $'[parameters.reactions]\nsbml = "missing.xml"'
lattice sbml-malformed.toml $'[parameters.reactions]\nsbml = "malformed.xml"'
lattice sbml-refused.toml $'[parameters.reactions]\nsbml = "refused.xml"'
lattice mesh-missing.toml $'[parameters.geometry]\nregion = "mesh"\nmesh = "missing.obj"'
lattice mesh-malformed.toml $'[parameters.geometry]\nregion = "mesh"\nmesh = "malformed.off"'
lattice mesh-open.toml $'[parameters.geometry]\nregion = "mesh"\nmesh = "open.obj"'
printf '<?xml version="1.0" encoding="UTF-8"?>\n<sbml xmlns="http://www.sbml.org/sbml/level3/version1/core" level="3" version="1">\n  <model id="m">\n  </modelx>\n</sbml>\n' >malformed.xml
# The bundled A + B <-> C with a rule, which the lattice cannot run.
sed -e 's|    <listOfReactions>|    <listOfRules><assignmentRule variable="kf"><math xmlns="http://www.w3.org/1998/Math/MathML"><cn>1</cn></math></assignmentRule></listOfRules>\n    <listOfReactions>|' \
  -e 's|id="kf" name="binding rate" value="107000" constant="true"|id="kf" value="107000" constant="false"|' \
  "$scenarios/../sbml/bimolecular.xml" >refused.xml
printf 'OFF\n3 900000000 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n' >malformed.off
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n' >open.obj
cardiac() {  # cardiac FILE [LINES]: a small cardiac sheet with more parameter lines
  printf 'model = "cardiac"\nseed = 1\nsteps = 5\n[output]\ndir = "out"\n[parameters.tissue]\nnx = 8\nny = 8\nnz = 1\n%s\n' "${2:-}" >"$1"
}
cardiac cellml-malformed.toml $'[parameters.model]\nfile = "malformed.cellml"'
cardiac cfm-missing.toml $'[parameters.model]\nfile = "missing.cfm"'
cardiac tissue-open.toml 'mesh = "open.obj"'
printf '<?xml version="1.0"?>\n<model xmlns="http://www.cellml.org/cellml/1.0#" name="m">\n  <component name="membrane">\n    <variable name="V" units="millivolt"\n  </component>\n</model>\n' >malformed.cellml
mkdir folder.toml
printf 'model = "brownian"\nseed = = 3\n' >bad.toml
printf 'model = "brownian"\n[parameters.system]\ncount = 10\nbox = 32.0\nsteps = 5\n' >unknown.toml

# ---- cellforge-sim run ----------------------------------------------------------------------
expect malformed-scenario 2 "bad.toml:2:8:" -- "$sim" run bad.toml --out o1
expect unknown-key 2 "unknown.toml:5:1: unknown key 'steps' in \[parameters.system\]" -- \
  "$sim" run unknown.toml --out o2
expect out-of-range-set 2 "parameter 'dynamics.dt' = 5 is out of range: allowed \[1e-07, 1\] s" -- \
  "$sim" run "$scenarios/default.toml" --set dynamics.dt=5 --out o3
expect out-of-range-set-once 2 "parameter 'growth.rate' = -1 is out of range: allowed \[0, " -- \
  "$sim" run "$scenarios/spheres-spheroid.toml" --set growth.rate=-1 --out o3
expect unknown-parameter 2 "unknown parameter 'dynamics.dtt' \(did you mean 'dynamics.dt'" -- \
  "$sim" run "$scenarios/default.toml" --set dynamics.dtt=1 --out o4
expect nan-parameter 2 "time.dt" -- \
  "$sim" run "$scenarios/epidermis-movement.toml" --set time.dt=nan --out o5
expect missing-scenario 2 "$work/none.toml: no such file$" -- "$sim" run "$work/none.toml"
expect scenario-in-missing-folder 2 "$work/nofolder/a.toml: no such file$" -- \
  "$sim" run "$work/nofolder/a.toml"
expect scenario-is-a-folder 2 "folder.toml: is a directory, not a file" -- \
  "$sim" run ./folder.toml
if [ "$(id -u)" -ne 0 ]; then  # root reads every file
  cp bad.toml locked.toml && chmod 000 locked.toml
  expect scenario-unreadable 2 "locked.toml: cannot be read: Permission denied" -- \
    "$sim" run ./locked.toml
fi
expect sbml-missing 2 "$work/missing.xml: no such file" -- \
  "$sim" run sbml-missing.toml --backend cpu --out o8
expect sbml-malformed 2 "$work/malformed.xml:4:[0-9]+: malformed SBML" -- \
  "$sim" run sbml-malformed.toml --backend cpu --out o8
expect sbml-refused 2 "$work/refused.xml: the model has 1 rule\(s\)" -- \
  "$sim" run sbml-refused.toml --backend cpu --out o8
expect mesh-missing 2 "mesh file '$work/missing.obj': no such file" -- \
  "$sim" run mesh-missing.toml --backend cpu --out o8
expect mesh-malformed 2 "mesh file '$work/malformed.off': the OFF header declares 900000000 faces" -- \
  "$sim" run mesh-malformed.toml --backend cpu --out o8
expect mesh-open 2 "$work/open.obj: mesh is not closed" -- \
  "$sim" run mesh-open.toml --backend cpu --out o8
expect cellml-malformed 2 "$work/malformed.cellml:5:[0-9]+: error: not well-formed XML" -- \
  "$sim" run cellml-malformed.toml --backend cpu --out o8
expect model-file-missing 2 "model.file: $work/missing.cfm: no such file" -- \
  "$sim" run cfm-missing.toml --backend cpu --out o8
expect tissue-mesh-open 2 "tissue.mesh: $work/open.obj: mesh is not closed" -- \
  "$sim" run tissue-open.toml --backend cpu --out o8
expect resume-missing 2 "$work/gone.cfchk: no such file" -- \
  "$sim" run "$scenarios/default.toml" --resume "$work/gone.cfchk" --out o9
expect out-not-a-folder 2 "bad.toml/o: cannot create output directory" -- \
  "$sim" run "$scenarios/default.toml" --steps 1 --out bad.toml/o
expect unknown-model 2 "unknown model 'nope'" -- "$sim" params nope

expect ok-run 0 "completed 20 steps" -- \
  "$sim" run "$scenarios/default.toml" --steps 20 --set system.count=500 --set system.box=10 \
  --out o6
grep -q '"status": "completed"' o6/run.json || { echo "FAIL ok-run: run.json status"; failures=$((failures + 1)); }

# A run that fails (an element moves too far in half a step) exits 3, names the step and
# the cell, records "failed" in run.json and keeps the last good checkpoint.
expect failed-run 3 "cell [0-9]+ .*step [0-9]+" -- \
  "$sim" run "$scenarios/epidermis-movement.toml" --backend cpu --steps 40 \
  --set init.cells=4 --set mechanics.neighbor_method=center --out o7 \
  --set time.dt=1 --set mechanics.intra_u0=50
grep -q '"status": "failed"' o7/run.json || { echo "FAIL failed-run: run.json status"; failures=$((failures + 1)); }

# ---- sweep, bench, cellml2cfm, nversion: the same refusals, before anything runs ----------------------
vary=(--vary species.n1=10:20:2 --steps 2 --backend cpu)
expect sweep-missing-scenario 2 "$work/none.toml: no such file$" -- \
  "$sim" sweep "$work/none.toml" "${vary[@]}" --out s1
expect sweep-sbml-refused 2 "$work/refused.xml: the model has 1 rule\(s\)" -- \
  "$sim" sweep sbml-refused.toml "${vary[@]}" --out s2
expect sweep-mesh-missing 2 "mesh file '$work/missing.obj': no such file" -- \
  "$sim" sweep mesh-missing.toml "${vary[@]}" --out s3
expect sweep-mesh-open 2 "$work/open.obj: mesh is not closed" -- \
  "$sim" sweep mesh-open.toml "${vary[@]}" --out s4
expect sweep-model-file-missing 2 "model.file: $work/missing.cfm: no such file" -- \
  "$sim" sweep cfm-missing.toml --vary time.dt=0.01:0.02:2 --steps 2 --backend cpu --out s5
expect sweep-set-once 2 "parameter 'growth.rate' = -1 is out of range" -- \
  "$sim" sweep "$scenarios/spheres-spheroid.toml" --vary init.count=10:20:2 \
  --set growth.rate=-1 --out s6
for s in s1 s2 s3 s4 s5 s6; do
  [ -e "$s" ] && { echo "FAIL sweep refused but wrote $s"; failures=$((failures + 1)); }
done
expect bench-unknown-model 2 "unknown model 'nope' \(known models: " -- "$sim" bench nope
expect bench-unknown-case 2 "no benchmark case 'nope' \(cases: " -- "$sim" bench brownian --case nope
expect cellml2cfm-missing 2 "$work/none.cellml: no such file" -- "$sim" cellml2cfm "$work/none.cellml"
expect cellml2cfm-malformed 2 "malformed.cellml:5:[0-9]+: error: not well-formed XML" -- \
  "$sim" cellml2cfm malformed.cellml
# IN and OUT: the model text goes to the file (both positionals once read as one list).
br77="$scenarios/../../tests/data/cardiac/beeler_reuter_1977.cellml"
if "$sim" cellml2cfm "$br77" br77.cfm >cellml2cfm.out 2>&1 && grep -q '^method grl1: \*$' br77.cfm &&
  [ ! -s cellml2cfm.out ]; then
  echo "ok   cellml2cfm-to-file"
  passes=$((passes + 1))
else
  echo "FAIL cellml2cfm-to-file: exit or br77.cfm wrong; output:"
  sed 's/^/    /' cellml2cfm.out | head -4
  failures=$((failures + 1))
fi
# nversion and cellml2cfm are the cardiac model's commands (ModelDescriptor::commands): the
# CLI builds them from the declaration and its checks are the model's.
expect nversion-not-a-number 2 "--dx: 'abc' is not a finite number" -- "$sim" nversion --dx abc --out n1
expect nversion-all-and-dx 2 "nversion: give --all or --dx/--dt, not both" -- \
  "$sim" nversion --all --dx 0.5 --out n2
for n in n1 n2; do
  [ -e "$n" ] && { echo "FAIL nversion refused but wrote $n"; failures=$((failures + 1)); }
done

# ---- cellforge --headless ---------------------------------------------------------------------
if [ "$app" = none ]; then
  echo "skip headless: this build has no cellforge"
elif probe=$("$app" --headless "$scenarios/default.toml" --steps 1 --size 64x64 \
  --screenshot "$work/probe.png" 2>&1) || ! grep -q "no headless OpenGL" <<<"$probe"; then
  shot=(--steps 1 --size 64x64 --screenshot "$work/h.png")
  expect headless-color 2 "--color: view 'particles' has no channel 'bogus' \(it has: [a-z_, ]+\)" -- \
    "$app" --headless "$scenarios/default.toml" --backend cpu --color bogus "${shot[@]}"
  expect headless-set-once 2 "parameter 'growth.rate' = -1 is out of range" -- \
    "$app" --headless "$scenarios/spheres-spheroid.toml" --set growth.rate=-1 "${shot[@]}"
  expect headless-unknown-parameter 2 "unknown parameter 'dynamics.dtt'" -- \
    "$app" --headless "$scenarios/default.toml" --set dynamics.dtt=1 "${shot[@]}"
  expect headless-missing-scenario 2 "$work/none.toml: no such file$" -- \
    "$app" --headless "$work/none.toml" "${shot[@]}"
  expect headless-scenario-is-a-folder 2 "folder.toml: is a directory, not a file" -- \
    "$app" --headless ./folder.toml "${shot[@]}"
  expect headless-sbml-refused 2 "$work/refused.xml: the model has 1 rule\(s\)" -- \
    "$app" --headless sbml-refused.toml --backend cpu "${shot[@]}"
  expect headless-mesh-missing 2 "mesh file '$work/missing.obj': no such file" -- \
    "$app" --headless mesh-missing.toml --backend cpu "${shot[@]}"
  expect headless-mesh-open 2 "$work/open.obj: mesh is not closed" -- \
    "$app" --headless mesh-open.toml --backend cpu "${shot[@]}"
  expect headless-cellml-malformed 2 "$work/malformed.cellml:5:[0-9]+: error: not well-formed XML" -- \
    "$app" --headless cellml-malformed.toml --backend cpu "${shot[@]}"
else
  echo "skip headless: no headless OpenGL here"
fi

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
