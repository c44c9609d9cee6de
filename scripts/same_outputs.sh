#!/usr/bin/env bash
# A renovation's check that behaviour is unchanged (issue 29, "How we know it is unchanged"):
# runs every example model (models/*.toml) and every model under tests/data/ under dopri5 and
# trbdf2, and writes one line per run: the model, the method, and the SHA-256 of the CSV it
# wrote (or the first "error:" line of the message, for a model that is meant to fail).
#
#   scripts/same_outputs.sh OUT.txt [BLOCKDYN]      # BLOCKDYN defaults to target/release/blockdyn
#   STOP_TIME=0.2 scripts/same_outputs.sh OUT.txt   # shorter runs (every model at once)
#
# Build the binary of the commit before the change, run this into before.txt, build the
# change, run it into after.txt, then `diff before.txt after.txt`: any line that differs is a
# behaviour change. The runs happen in a temporary directory (a model's [output] files land
# there), so nothing is written into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
out=${1:?usage: scripts/same_outputs.sh OUT.txt [BLOCKDYN]}
bin=${2:-$repo/target/release/blockdyn}
[[ -x $bin ]] || { echo "same_outputs: $bin is not an executable (cargo build --release)" >&2; exit 2; }
case $out in /*) ;; *) out=$PWD/$out ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/blockdyn-same.XXXXXX")
trap 'rm -rf "$work"' EXIT
extra=()
[[ -n ${STOP_TIME:-} ]] && extra=(--stop-time "$STOP_TIME")

: >"$out"
mapfile -t models < <(ls models/*.toml; find tests/data -name '*.toml' | sort)
for model in "${models[@]}"; do
  for method in dopri5 trbdf2; do
    csv=$work/run.csv
    rm -f "$csv"
    if message=$(cd "$work" && "$bin" run -q "$repo/$model" --csv "$csv" \
        --set "solver.method=$method" "${extra[@]}" 2>&1 >/dev/null); then
      echo "$model $method $(sha256sum "$csv" | cut -d' ' -f1)" >>"$out"
    else
      first=$(grep -m1 '^error' <<<"$message" || head -n1 <<<"$message")
      echo "$model $method $first" >>"$out"
    fi
  done
done
echo "same_outputs: $(wc -l <"$out") runs written to $out"
