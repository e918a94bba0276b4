#!/usr/bin/env bash
# Writes Packaging/prefs.order, the link order of the release build (Scripts/build-release.sh):
#   Scripts/make-order-file.sh [PREFS]     (default: the release build, made first)
# Every symbol of PREFS that a small command touches (code and data), in the order it is first
# touched, as valgrind's lackey traces them over the commands a script runs once per file:
# --version, read, convert to standard output and to a file, write, defaults read (then read and
# lint of a large domain, after them). The linker
# (lld's --symbol-ordering-file) puts those first, so that a start maps a few hundred kilobytes of
# code the command runs instead of touching pages all over 12 MB: a fault costs a few
# microseconds here, the start of a small command is mostly faults (BENCHMARKS.md, issue 37).
# A name the build no longer has is passed over by the linker; a stale file costs speed, never
# correctness. Run it after a change to what a small command runs, and commit the file.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "make-order-file: valgrind is needed" >&2; exit 1; }
prefs="${1:-}"
built=""
if [ -z "$prefs" ]; then
  prefs="$(Scripts/build-release.sh)"
  built="$prefs"
fi
prefs="$(readlink -f "$prefs")"
repo="$PWD"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 "$repo/Scripts/small-domain.py" small.bplist written.bplist config/com.example.small.plist
mkdir bin && ln -s "$prefs" bin/defaults
export XDG_CONFIG_HOME="$work/config"
n=0
trace() {
  n=$((n + 1))
  valgrind --tool=lackey --trace-mem=yes --log-file="$work/trace.$n" "$@" >/dev/null 2>&1
}
trace "$prefs" --version
trace "$prefs" read ./small.bplist FontSize
trace "$prefs" convert ./small.bplist --to xml
trace "$prefs" convert ./small.bplist --to xml -o out.xml
trace "$prefs" write ./written.bplist FontSize -int 13
trace bin/defaults read com.example.small FontSize
# Then a large domain (100,000 keys, written by prefs as the bench's is: mapped, not read, by
# read and lint), whose code comes after every small command's.
python3 -c 'import plistlib, sys; plistlib.dump({"setting.%d" % i: i for i in range(100000)}, open(sys.argv[1], "wb"))' large.xml
"$prefs" convert ./large.xml --to binary -o large.bplist
trace "$prefs" read ./large.bplist setting.50000
trace "$prefs" lint ./large.bplist
nm -n --defined-only "$prefs" >symbols
readelf -lW "$prefs" >segments
python3 - "$repo/Packaging/prefs.order" trace.* <<'PY'
import bisect, sys
out, traces = sys.argv[1], sys.argv[2:]
# The addresses the binary's own segments hold (not the heap, the stack or valgrind's).
segments = []
for line in open("segments"):
    fields = line.split()
    if fields[:1] == ["LOAD"]:
        start = int(fields[2], 16)
        segments.append((start, start + int(fields[5], 16)))
starts, names = [], []
for line in open("symbols"):
    fields = line.split()
    if len(fields) == 3:
        starts.append(int(fields[0], 16))
        names.append(fields[2])
seen, order = set(), []
for path in sorted(traces, key=lambda p: int(p.rsplit(".", 1)[1])):
    for line in open(path):
        fields = line.split()
        if len(fields) != 2 or fields[0] not in ("I", "L", "S", "M"):
            continue
        address = int(fields[1].split(",")[0], 16)
        if not any(lo <= address < hi for lo, hi in segments):
            continue
        i = bisect.bisect_right(starts, address) - 1
        if i < 0:
            continue
        name = names[i]
        if name not in seen:
            seen.add(name)
            order.append(name)
with open(out, "w") as f:
    f.write("".join(name + "\n" for name in order))
print(f"make-order-file: {len(order)} symbols → {out}", file=sys.stderr)
PY
# The build's flags name the file, not its contents: a build after a new order is up to date
# for SwiftPM. The release build made here is linked again in the new order.
if [ -n "$built" ]; then
  cd "$repo"
  rm -f "$built"
  Scripts/build-release.sh >/dev/null
fi
