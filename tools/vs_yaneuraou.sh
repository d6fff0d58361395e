#!/usr/bin/env bash
# shomei against YaneuraOu's material edition at equal evaluation (docs/strength.md, "Time per
# move"): one match under the clock given, 1 thread and USI_Hash 64 on both sides, colours swapped
# in pairs, the built-in openings in order, two games at a time. YaneuraOu gets
# RoundUpToFullSecond false, which sub-second clocks need. `tools/move_times.py OUT/match` then
# shows how each engine spent its clock.
#
# usage: tools/vs_yaneuraou.sh OUT TC [GAMES] [SEED] [ENGINE]
#   TC: the arena's --tc (byoyomi=300, 10+0.1, time=10,byoyomi=300)
#   ENGINE: the shomei binary (default target/release/shomei: for the material build, run
#   `cargo build --release --features material` first), copied into OUT; the arena too.
#   OPENINGS (environment): the arena's --openings, `builtin` unless set; for games 101-200 of
#   a 200-game match, the openings from pair 51 on: tools/rotate_openings.sh 50 > FILE.
# Needs yaneuraou-material on the PATH (../shared/tools/build_peers.sh).
set -euo pipefail
usage="usage: tools/vs_yaneuraou.sh OUT TC [GAMES] [SEED] [ENGINE]"
out=${1:?$usage}
tc=${2:?$usage}
games=${3:-200}
seed=${4:-1}
engine=${5:-target/release/shomei}
cd "$(dirname "$0")/.."
mkdir -p "$out"
cp "$engine" "$out/shomei"
cp target/release/shomei-arena "$out/shomei-arena"
"$out/shomei-arena" --engine1 "$out/shomei" --name1 shomei \
    --engine2 yaneuraou-material --name2 yaneuraou-material \
    --option1 NetworkDelay=0 --option1 USI_Hash=64 \
    --option2 Threads=1 --option2 USI_Hash=64 --option2 BookFile=no_book \
    --option2 NetworkDelay=0 --option2 NetworkDelay2=0 --option2 MinimumThinkingTime=1 \
    --option2 RoundUpToFullSecond=false \
    --openings "${OPENINGS:-builtin}" \
    --games "$games" --tc "$tc" --concurrency 2 --seed "$seed" --overwrite \
    --out "$out/match" > "$out/match.log" 2>&1
tail -n 12 "$out/match.log"
