#!/usr/bin/env bash
# Plays short games with Chariot through clients written by others, and checks each ends
# normally:
#   1. the cchess Python library (PyPI) driving Chariot over UCCI (Red) and UCI (Black),
#      xiangqilab's engine driver and analysis parser (PyPI) analysing with MultiPV 3, and
#      whole games through the engine drivers of two tools made for Pikafish/ElephantEye:
#      pikafish-terminal (UCI; it sends the position after the moves, then the moves again)
#      and nonebot-plugin-cchess (UCCI, its AI levels);
#   2. XBoard in a virtual display, Chariot behind the uci2wb adapter (UCCI, or UCI with
#      XBOARD_PROTOCOL=uci), against Debian's Sjaak II (a native XBoard engine that plays
#      xiangqi) at 20 s + 0.1 s, pondering on (XBoard's "hard"; XBOARD_PONDER=0 turns it
#      off). XBOARD_OPPONENT=maxqi plays MaxQi (the fairymax package) instead, and
#      XBOARD_TC/XBOARD_INC set the clock (e.g. XBOARD_TC=0:10 XBOARD_INC=0: 10 s sudden
#      death). Any game lost on time, forfeited or ended abnormally fails the check.
# Installs what it needs (pip, apt-get); needs root for apt-get. XBOARD_ONLY=1 skips cchess.
#
# Usage: scripts/client-check.sh [GAMES_FOR_XBOARD]
#   e.g. XBOARD_ONLY=1 scripts/client-check.sh 21   (uci2wb turns pondering on from the
#   second game of a match: the first game's "hard" reaches it before the engine's options)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-2}
cargo build --release --quiet
engine="${ENGINE:-$PWD/target/release/chariot}"

if [ "${XBOARD_ONLY:-0}" != 1 ]; then
  echo "== cchess (UcciEngine + UciEngine) =="
  python3 -c "import cchess" 2>/dev/null || pip install --quiet cchess
  python3 scripts/client_check_cchess.py "$engine" 30
  echo "== xiangqilab (analysis, MultiPV 3) =="
  python3 -c "import xiangqilab" 2>/dev/null ||
    pip install --quiet --no-deps --ignore-requires-python xiangqilab
  python3 scripts/client_check_xiangqilab.py "$engine" 0.7
  echo "== pikafish-terminal (PikafishEngine + XiangqiBoard, a whole game) =="
  python3 -c "import pikafish_terminal" 2>/dev/null || pip install --quiet pikafish-terminal
  python3 scripts/client_check_pikafish_terminal.py "$engine" | tail -3
  echo "== nonebot-plugin-cchess (UCCIEngine + Board, a whole game) =="
  # Its package needs the nonebot framework; the engine and board modules need only Pillow.
  python3 -c "import PIL" 2>/dev/null || pip install --quiet "Pillow<11"
  python3 -c "import importlib.util as u; exit(u.find_spec('nonebot_plugin_cchess') is None)" ||
    pip install --quiet --no-deps nonebot-plugin-cchess
  python3 scripts/client_check_nonebot_cchess.py "$engine" | tail -3
fi

opponent=${XBOARD_OPPONENT:-sjaakii}
tc=${XBOARD_TC:-0:20}
inc=${XBOARD_INC:-0.1}
echo "== XBoard + uci2wb against $opponent =="
export PATH="$PATH:/usr/games"
if ! command -v xboard >/dev/null || ! command -v uci2wb >/dev/null || ! command -v sjaakii >/dev/null || ! command -v maxqi >/dev/null || ! command -v xvfb-run >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends xboard uci2wb sjaakii fairymax xvfb xauth >/dev/null
fi
work=$(mktemp -d)
pgn="$work/games.pgn"
if [ "${XBOARD_PROTOCOL:-ucci}" = uci ]; then
  protocol=(-fUCI -adapterCommand 'uci2wb -c "%fcp" "%fd"')
else
  protocol=(-fUCCI -uxiAdapter 'uci2wb -%variant "%fcp" "%fd"')
fi
if [ "${XBOARD_PONDER:-1}" = 1 ]; then ponder=-ponder; else ponder=-xponder; fi
echo "(${XBOARD_PROTOCOL:-ucci}, $ponder, $games games at $tc + $inc; XBoard's debug log: $work/xboard.debug)"
xvfb-run -a xboard -variant xiangqi -fcp "$engine" -fd "$PWD" "${protocol[@]}" \
  -scp "$opponent" -sd "$work" -mg "$games" -tc "$tc" -inc "$inc" -noGUI "$ponder" -autoCallFlag true \
  -debug -nameOfDebugFile "$work/xboard.debug" \
  -saveGameFile "$pgn" >"$work/xboard.log" 2>&1 &
xboard_pid=$!
# XBoard does not always exit after a match: wait for the games in the PGN, then end it.
for _ in $(seq $((300 * games))); do
  done_games=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$pgn" 2>/dev/null || true)
  [ "${done_games:-0}" -ge "$games" ] && break
  kill -0 "$xboard_pid" 2>/dev/null || break
  sleep 1
done
pkill -P "$xboard_pid" 2>/dev/null || true
kill "$xboard_pid" 2>/dev/null || true
grep -E '^\[(White|Black|Result) ' "$pgn" || true
grep -E '^\{.*\}' "$pgn" | grep -iE 'adjudication|mate|resign|wins|draw|repetition' || true
grep 'final score' "$work/xboard.log" || true
done_games=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$pgn" 2>/dev/null || true)
if [ "${done_games:-0}" -lt "$games" ]; then
  echo "XBoard finished only ${done_games:-0} of $games games; log in $work" >&2
  exit 1
fi
if grep -qiE 'illegal|forfeit|crash|disconnect|on time|flag fell' "$pgn"; then
  echo "a game ended abnormally; see $pgn" >&2
  exit 1
fi
echo "client check passed"
