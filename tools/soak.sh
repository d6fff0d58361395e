#!/usr/bin/env bash
# The reliability soak: shomei at byoyomi 100 ms with USI_Ponder and Threads 2, half of the
# games against itself and half against YaneuraOu's material edition, two games at once.
# The arena counts crashes, illegal moves, time losses, hangs and protocol errors, and logs
# each engine's slowest answer (summary.txt of each half).
#
#   tools/soak.sh OUT_DIR [GAMES_PER_HALF] [SEED]
#
# Needs target/release/shomei and shomei-arena (cargo build --release) and, for the second
# half, yaneuraou-material on the PATH (../shared/tools/build_peers.sh). The engine binary is
# copied first, so that a build during the run does not change what is tested.
set -euo pipefail
out=${1:?usage: tools/soak.sh OUT_DIR [GAMES_PER_HALF] [SEED]}
games=${2:-500}
seed=${3:-46}
cd "$(dirname "$0")/.."
mkdir -p "$out"
cp target/release/shomei "$out/shomei"
cp target/release/shomei-arena "$out/shomei-arena"
common=(--games "$games" --tc byoyomi=100 --concurrency 2 --random-opening 8 --seed "$seed")
"$out/shomei-arena" --engine1 "$out/shomei" --engine2 "$out/shomei" --ponder \
    --option Threads=2 --option USI_Hash=64 "${common[@]}" --out "$out/self"
"$out/shomei-arena" --engine1 "$out/shomei" --engine2 yaneuraou-material --ponder1 \
    --option1 Threads=2 --option1 USI_Hash=64 \
    --option2 Threads=1 --option2 USI_Hash=64 --option2 BookFile=no_book --option2 NetworkDelay=0 \
    --option2 NetworkDelay2=0 --option2 MinimumThinkingTime=1 --option2 RoundUpToFullSecond=false \
    "${common[@]}" --out "$out/yaneuraou"
tail -n 20 "$out/self/summary.txt" "$out/yaneuraou/summary.txt"
