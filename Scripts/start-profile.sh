#!/usr/bin/env bash
# What one small-file command executes between exec and exit, for a release binary:
#   Scripts/start-profile.sh [PREFS]        (default .build/release/prefs, the Install build)
# Instructions from callgrind (valgrind), the reliable measure on a shared machine; page
# faults from `perf stat` where it runs (a fault here costs about 2 µs, as much as 6,000
# instructions: in a small command they weigh more than the instructions do). The file is
# 68 keys of every type in binary (1.7 KB), as prefs-bench's small-file rows; plistutil and
# an empty fully static Swift program are measured beside it when they are there.
# `--callgrind DIR` keeps each run's callgrind file in DIR (callgrind_annotate reads them).
set -euo pipefail
keep=""
if [ "${1:-}" = "--callgrind" ]; then keep="$2"; shift 2; fi
prefs="$(readlink -f "${1:-.build/release/prefs}")"
command -v valgrind >/dev/null || { echo "start-profile: valgrind is needed" >&2; exit 1; }
scripts="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 "$scripts/small-domain.py" small.bplist written.bplist config/com.example.small.plist
mkdir -p bin && ln -s "$prefs" bin/defaults
export XDG_CONFIG_HOME="$work/config"
faults() {
  if perf stat -x, -e page-faults true >/dev/null 2>&1; then
    perf stat -x, -e page-faults "$@" 2>&1 >/dev/null | sed -n 's/^\([0-9]*\),.*page-faults.*/\1/p'
  else
    echo "-"
  fi
}
row() {
  local name="$1"; shift
  local out="$work/callgrind.out"
  local count
  count="$(valgrind --tool=callgrind --callgrind-out-file="$out" "$@" 2>&1 >/dev/null |
    sed -n 's/.*refs: *//p')"
  [ -z "$keep" ] || { mkdir -p "$keep"; cp "$out" "$keep/$name.callgrind"; }
  printf '%-40s %12s %8s\n' "$name" "$count" "$(faults "$@")"
}
printf '%-40s %12s %8s\n' "command" "instructions" "faults"
if command -v swiftc >/dev/null; then
  echo 'print("")' > empty.swift
  if swiftc -O -static-executable empty.swift -o empty 2>/dev/null; then row "empty Swift program (fully static)" ./empty; fi
fi
row "prefs --version" "$prefs" --version
row "prefs read FILE KEY" "$prefs" read ./small.bplist FontSize
row "prefs convert FILE --to xml" "$prefs" convert ./small.bplist --to xml
row "prefs convert FILE --to xml -o OUT" "$prefs" convert ./small.bplist --to xml -o out.xml
row "prefs write FILE KEY -int 13" "$prefs" write ./written.bplist FontSize -int 13
row "defaults read DOMAIN KEY (prefs)" bin/defaults read com.example.small FontSize
if command -v plistutil >/dev/null; then
  row "plistutil -i FILE -f xml" plistutil -i small.bplist -f xml
  row "plistutil -i FILE -f xml -o OUT" plistutil -i small.bplist -f xml -o out-plistutil.xml
fi
