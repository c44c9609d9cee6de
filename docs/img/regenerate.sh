#!/usr/bin/env bash
# Regenerates the pictures README.md shows, from the examples, with the current binary:
#   bash docs/img/regenerate.sh
# (Not run by the tests: tests never write into the repository.)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release
bin=target/release/blockdyn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" run models/contactsim_blocks.toml --animate docs/img/contactsim_blocks.gif --plot "$tmp/unused.png" -q
"$bin" run models/ball_drop.toml --plot docs/img/ball_drop.png -q
