#!/usr/bin/env bash
# Runs the scenes of issue 26 (models/puck.toml, four_coins.toml, gripper.toml, dominoes.toml,
# seesaw.toml) under dopri5 (the models' default), trbdf2 and esdirk43, one run at a time, and
# prints each run's summary line (steps, rejected, evaluations, wall time) or its error.
#
#   scripts/measure_scenes.sh [BLOCKDYN]      # default: target/release/blockdyn
#
# Each run gets `timeout 300` and a step budget of 2e6 trial steps (so that a stalling run ends
# with its message); a run cut by the timeout is printed as "> 300 s". The CSV and plot of every
# run go to a temporary directory, removed at the end: nothing is written into the repository.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/blockdyn}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for scene in puck four_coins gripper dominoes seesaw; do
  model=models/$scene.toml
  for method in dopri5 trbdf2 esdirk43; do
    log=$out/$scene-$method.log
    timeout 300 "$bin" run "$model" --set solver.method="$method" --set solver.max_steps=2000000 \
      --csv "$out/$scene-$method.csv" --plot "$out/$scene-$method.png" >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq 124 ]; then
      echo "$scene $method: > 300 s"
    else
      line=$(grep -m1 -E 'simulated|^error' "$log")
      echo "$scene $method: ${line:-exit $rc}"
    fi
  done
done
