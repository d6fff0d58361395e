#!/usr/bin/env bash
# The built-in openings (tools/openings.txt) as the arena's pair N+1 onwards meets them: the
# lines rotated left by N pairs, so that a match on this file replays games 2N+1.. of a longer
# match on the built-in file, game for game.
#
# usage: tools/rotate_openings.sh N > FILE
set -euo pipefail
usage="usage: tools/rotate_openings.sh N (pairs already played, 0 or more)"
pairs=${1:?$usage}
# At most 18 digits: bash arithmetic is 64-bit and would wrap a longer number without a word.
if ! [[ $pairs =~ ^[0-9]{1,18}$ ]]; then
    echo "$usage" >&2
    exit 2
fi
cd "$(dirname "$0")/.."
# The lines the arena reads: as it does, skip blank ones and comments, indented or not.
mapfile -t lines < <(grep -v -E '^[[:space:]]*(#|$)' tools/openings.txt)
if ((${#lines[@]} == 0)); then
    echo "tools/openings.txt holds no opening lines" >&2
    exit 1
fi
shift_by=$((10#$pairs % ${#lines[@]}))
printf '%s\n' "${lines[@]:shift_by}" "${lines[@]:0:shift_by}"
