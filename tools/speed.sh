#!/usr/bin/env bash
# Speed of two builds side by side, in one run on one machine: `tetrarch bench`'s nodes a second,
# perft from each variant's start (and Judtho's after a random Assembly), and a one-second search
# of each variant's start through the protocol. Rounds alternate the builds; each cell is the
# median of the rounds. Both builds evaluate classically (`--eval classical`, `UseNNUE false`,
# where a build has them), so that a build with a network compares with one without.
#
#   tools/speed.sh OLD_BINARY NEW_BINARY [ROUNDS]
set -euo pipefail
old=$1 new=$2 rounds=${3:-3}
# A Judtho position after a random Assembly (the bench's third position).
judtho_battle='rP1rB7bQ1/rPrR2rK2bP2bKbP/rP2rP1rNbR3bPbP/rP2rPrQrS1bSbBbNbPbP/12/12/12/12/wPwNwP1wBwQyN2yPyPyP/wPwPwP1wP1yPyS2yPyP/3wR5yQyB1/4wKwS2yR1yK1 w w:C,r:C,y:C,b:C - wryb 0 49'
measure() { # binary, measurement -> a number (M nodes/s)
  local bin=$1 what=$2
  case $what in
    bench)
      local eval=(); "$bin" bench --help 2>&1 | grep -q -- --eval && eval=(--eval classical)
      "$bin" bench "${eval[@]}" 2>&1 | awk '/Nodes\/second/ {printf "%.3f", $2 / 1e6}' ;;
    perft:*)
      IFS=: read -r _ v d <<<"$what"
      local pos=startpos; [ "$v" = judtho-battle ] && { v=judtho; pos="fen $judtho_battle"; }
      "$bin" perft "$v" "$d" $pos | awk '/nodes\/s/ {printf "%.1f", $(NF - 1) / 1e6}' ;;
    search:*)
      local v=${what#search:} pos=startpos
      [ "$v" = judtho-battle ] && { v=judtho; pos="fen $judtho_battle"; }
      printf 'setoption name UseNNUE value false\nsetoption name USI_Variant value %s\nisready\nposition %s\ngo movetime 1000\n' "$v" "$pos" |
        (cat; sleep 1.6; echo quit) | "$bin" 2>/dev/null |
        awk '/^info depth/ {for (i = 1; i < NF; i++) if ($i == "nps") nps = $(i + 1)} END {printf "%.3f", nps / 1e6}' ;;
  esac
}
list=(bench perft:judkins:7 perft:dojo:6 perft:chaturanga:7 perft:chaturanga-ffa:7 perft:judtho-battle:4
  search:judkins search:dojo search:chaturanga search:chaturanga-ffa search:judtho search:judtho-battle)
declare -A a b
for ((r = 0; r < rounds; r++)); do
  for m in "${list[@]}"; do
    a[$m]+="$(measure "$old" "$m") "
    b[$m]+="$(measure "$new" "$m") "
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "| measurement (M nodes/s, median of $rounds) | old | new | change |"
echo "| --- | --- | --- | --- |"
for m in "${list[@]}"; do
  o=$(echo "${a[$m]}" | median) n=$(echo "${b[$m]}" | median)
  awk -v m="$m" -v o="$o" -v n="$n" 'BEGIN {printf "| %s | %s | %s | %+.1f %% |\n", m, o, n, (n / o - 1) * 100}'
done
