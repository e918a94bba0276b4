#!/usr/bin/env bash
# Root over users' files, raced by a user: an unprivileged user (nobody) swaps its preferences
# folder, its domain file, the lock and GNUstep's .lck for symbolic links (renameat2
# RENAME_EXCHANGE in a loop, Scripts/race/swap.c) while root runs prefs over the user's domain
# (migrate --in-place, write, defaults write, plutil -convert, --layout gnustep write). Every
# round checks that nothing outside the user's tree changed, that no byte of a root-only or
# another user's file reached the user's tree, and that every write prefs acknowledged is in the
# user's domain (Scripts/race/race.py). The cut-* scenarios: the user cuts its large domain to
# one page and writes it back in place (Scripts/race/cut.c) while root reads it, which prefs maps
# (it must never die of the fault, nor answer what the file does not hold). The rewrite-*
# scenarios: the user rewrites its large domain in place between two versions, its modification
# time put back (Scripts/race/rewrite.py), while root reads it: never half of each. The
# lock-replace-* scenarios: the user keeps renaming a new lock it holds over the domain's lock
# (Scripts/race/lock_replace.py): root ends busy at its deadline every round, its main thread
# root's all the while. Out of the default suite; CI runs a short smoke.
#   Scripts/symlink-race.sh [ROUNDS] [SCENARIO,...]    default 2000 rounds of every scenario
# Needs root, setpriv (util-linux), gcc and python3. PREFS_BINARY names the prefs to attack
# (default: the debug build, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-2000}"
only="${2:-}"
[ "$(id -u)" = 0 ] || { echo "symlink-race: run as root (the attack is a user racing root)" >&2; exit 64; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
gcc -O2 -o "$work/swap" Scripts/race/swap.c
gcc -O2 -o "$work/cut" Scripts/race/cut.c
chmod 0755 "$work" "$work/swap" "$work/cut"
binary="${PREFS_BINARY:-}"
if [ -z "$binary" ]; then
  swift build --product prefs >/dev/null
  binary="$PWD/.build/debug/prefs"
fi
exec python3 Scripts/race/race.py --prefs "$binary" --swap "$work/swap" --cut "$work/cut" \
  --rounds "$rounds" ${only:+--only "$only"}
