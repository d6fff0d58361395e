#!/usr/bin/env bash
# The strength-level ladder of `SkillLevel` (docs/strength.md, "Strength levels"): level 0 against
# Fairy-Stockfish's `Skill Level 0` (the scale's zero), then every second level against the one
# two below it, 100 games each at byoyomi 200 ms, concurrency 2, the built-in openings.
# `tools/ladder.py OUT` turns the results into the table and the plot.
#
# usage: tools/ladder.sh OUT [GAMES] [SEED]   (needs /usr/games/fairy-stockfish: apt-get install
# fairy-stockfish; build first: cargo build --release --workspace)
set -euo pipefail
out=${1:?usage: tools/ladder.sh OUT [GAMES] [SEED]}
games=${2:-100}
seed=${3:-47}
cd "$(dirname "$0")/.."
mkdir -p "$out"
cp target/release/shomei "$out/shomei"
cp target/release/shomei-arena "$out/shomei-arena"
common=(--games "$games" --tc byoyomi=200 --concurrency 2 --seed "$seed" --overwrite
    --option1 USI_Hash=64 --option1 NetworkDelay=0)
"$out/shomei-arena" --engine1 "$out/shomei" --engine2 /usr/games/fairy-stockfish "${common[@]}" \
    --option1 SkillLevel=0 --option2 UCI_Variant=shogi --option2 "Skill Level=0" \
    --option2 Threads=1 --option2 Hash=64 --out "$out/anchor_l0_fsf0" > "$out/anchor_l0_fsf0.log" 2>&1
for hi in 2 4 6 8 10 12 14 16 18 20; do
    lo=$((hi - 2))
    "$out/shomei-arena" --engine1 "$out/shomei" --engine2 "$out/shomei" --name1 "L$hi" --name2 "L$lo" \
        "${common[@]}" --option1 SkillLevel=$hi --option2 SkillLevel=$lo \
        --option2 USI_Hash=64 --option2 NetworkDelay=0 \
        --out "$out/chain_l${hi}_l${lo}" > "$out/chain_l${hi}_l${lo}.log" 2>&1
done
