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
# The viewer's screenshot: Debian's chromium, headless, WebGL on the CPU (SwiftShader).
"$bin" run models/contactsim_blocks.toml --view "$tmp/view.html" --plot "$tmp/unused.png" -q
chromium --headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader --disable-quic \
  --no-first-run --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$tmp/profile" --virtual-time-budget=2000 --window-size=720,640 \
  --screenshot=docs/img/contactsim_viewer.png "file://$tmp/view.html#t=1.6"
