#!/usr/bin/env bash
# Compares `blockdyn check`'s work estimate ("about N steps per simulated second") with the steps per simulated second each example model takes under the default
# method (issue 26, part 3: the prediction should be within 3×), and prints the wall time `check` itself took (its bounded probe
# included; a wall time, so it varies with the machine's load).
#
#   scripts/measure_check.sh [BLOCKDYN] [MODEL...]     # default: target/release/blockdyn, models/*.toml
#
# Outputs go to a temporary directory, removed at the end: nothing is written into the repository.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/blockdyn}
shift || true
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(models/*.toml)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf '%-28s %12s %12s %8s %10s\n' model predicted measured ratio check_s
for model in "${models[@]}"; do
  start=$(date +%s.%N)
  "$bin" check "$model" >"$out/check.txt" 2>/dev/null
  check_s=$(python3 -c "print(f'{$(date +%s.%N) - $start:.3f}')")
  predicted=$(grep -A1 '^work estimate' "$out/check.txt" \
    | grep -o 'about [0-9.e+]* steps per simulated second, about' | grep -o '[0-9][0-9.e+]*' | head -1)
  line=$(timeout 300 "$bin" run "$model" --csv "$out/run.csv" --plot "$out/run.png" 2>&1 | grep -m1 ": simulated ")
  python3 - "$model" "${predicted:-}" "$line" "$check_s" <<'PY'
import re, sys
model, predicted, line, check_s = sys.argv[1:]
m = re.search(r"simulated ([0-9.e+-]+) s .* ([0-9]+) steps \(", line)
measured = int(m.group(2)) / float(m.group(1)) if m and float(m.group(1)) > 0 else None
p = float(predicted) if predicted else None
ratio = f"{p / measured:.2f}" if p and measured else "-"
print(f"{model.split('/')[-1]:<28} {predicted or 'none':>12} {measured and round(measured) or '-':>12} {ratio:>8} {check_s:>10}")
PY
done
