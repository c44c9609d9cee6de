#!/usr/bin/env bash
# Compares `method = "auto"` with the fixed methods on every example model (issue 26's targets):
# for each models/*.toml, the evaluations under dopri5 (what every example used before "auto"),
# trbdf2, esdirk43 and auto, and auto's ratio to dopri5 and to the best of the three.
#
#   scripts/measure_auto.sh [BLOCKDYN] [MODEL...]     # default: target/release/blockdyn, models/*.toml
#   AUTO_ONLY=1 scripts/measure_auto.sh ...            # dopri5 and auto only (trbdf2, esdirk43 "-")
#
# Each run gets `timeout 300` and a step budget of 2e6 trial steps; outputs (the CSV and the plot,
# which a model's [output] would otherwise write beside the working directory) go to a temporary
# directory, removed at the end: nothing is written into the repository. Counts are deterministic.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/blockdyn}
shift || true
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(models/*.toml)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# evaluations of one run, or "stall"/"timeout"/"error"
evals() {
  local model=$1 method=$2 log=$out/run.log
  timeout 300 "$bin" run "$model" --set solver.method="$method" --set solver.max_steps=2000000 \
    --csv "$out/run.csv" --plot "$out/run.png" >"$log" 2>&1
  local rc=$?
  if [ "$rc" -eq 124 ]; then echo timeout; return; fi
  local line
  line=$(grep -m1 ': simulated ' "$log") || { grep -q stalled "$log" && echo stall || echo error; return; }
  echo "$line" | sed -E 's/.* ([0-9]+) steps \(([0-9]+) rejected\), ([0-9]+) evaluations.*/\3 \1 \2/;s/.*wall: ([0-9]+) steps \(([0-9]+) rejected\), ([0-9]+) evaluations.*/\3 \1 \2/'
}

printf '%-28s %10s %10s %10s %10s %8s %8s %s\n' model dopri5 trbdf2 esdirk43 auto "a/dopri" "a/best" "auto: steps (rejected)"
for model in "${models[@]}"; do
  d=$(evals "$model" dopri5); a=$(evals "$model" auto)
  if [ "${AUTO_ONLY:-0}" = 1 ]; then t=-; e=-
  else t=$(evals "$model" trbdf2); e=$(evals "$model" esdirk43); fi
  python3 - "$model" "$d" "$t" "$e" "$a" <<'PY'
import sys
name, *runs = sys.argv[1:]
ev = [r.split()[0] if r.split()[0].isdigit() else r for r in runs]
num = [int(x) if x.isdigit() else None for x in ev]
best = min([n for n in num[:3] if n is not None], default=None)
auto = num[3]
r1 = f"{auto / num[0]:.2f}" if auto and num[0] else "-"
r2 = f"{auto / best:.2f}" if auto and best else "-"
steps = " ".join(runs[3].split()[1:]) if auto else ""
print(f"{name.split('/')[-1]:<28} {ev[0]:>10} {ev[1]:>10} {ev[2]:>10} {ev[3]:>10} {r1:>8} {r2:>8} {steps}")
PY
done
