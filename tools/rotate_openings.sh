#!/usr/bin/env bash
# The built-in openings (tools/openings.txt) as the arena's pair N+1 onwards meets them: the
# lines rotated left by N pairs, so that a match on this file replays games 2N+1.. of a longer
# match on the built-in file, game for game.
#
# usage: tools/rotate_openings.sh N > FILE
set -euo pipefail
pairs=${1:?usage: tools/rotate_openings.sh N}
cd "$(dirname "$0")/.."
mapfile -t lines < <(grep -v -e '^#' -e '^[[:space:]]*$' tools/openings.txt)
shift_by=$((pairs % ${#lines[@]}))
printf '%s\n' "${lines[@]:shift_by}" "${lines[@]:0:shift_by}"
