#!/usr/bin/env bash
# The differential of prefs' readers against the legacy apps' own (issue 36; MIGRATION.md,
# "Reading a legacy file as its app read it"): every input is read by prefs as each dialect
# reads a legacy file, by CoreFoundation (the toolchain Foundation's PropertyListSerialization),
# GNUstep Base, python's plistlib and libplist's plistutil, each under a memory limit, and
# classified; what prefs writes is read back by the references. Out of the default suite.
#
#   Scripts/differential.sh [--count N] [--seed S] [--seeds DIR]... [--keep DIR] [--smoke]
#
# --count N     inputs (default 20000: the repository's fixtures, --seeds folders, generated
#               documents and their mutations; see Scripts/Differential/generate.py)
# --seeds DIR   more seed files, e.g. public projects' test data (Scripts/Differential/README.md)
# --keep DIR    keep the inputs, the answers and report.json there (default: a temporary folder)
# --smoke       400 inputs and no plistutil: the check .ci/run makes
# Exit status 1 when a value differs from the dialect's reader, a round trip loses a value,
# or an accept/refuse difference is no row of Scripts/Differential/rows.py (Docs/compatibility.md).
set -euo pipefail
cd "$(dirname "$0")/.."
here="$PWD/Scripts/Differential"
count=20000
seed=36
keep=""
extra=()
smoke=()
while (($#)); do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --seeds) extra+=(--seeds "$2"); shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --smoke) count=400; smoke=(--no-plistutil); shift ;;
    *) echo "usage: $0 [--count N] [--seed S] [--seeds DIR]... [--keep DIR] [--smoke]" >&2; exit 64 ;;
  esac
done
for tool in python3 plistutil gcc gnustep-config prlimit; do
  command -v "$tool" >/dev/null || { echo "differential.sh: $tool is needed (.ci/run installs it)" >&2; exit 69; }
done

work="${keep:-$(mktemp -d "${TMPDIR:-/tmp}/prefs-differential.XXXXXX")}"
[[ -n "$keep" ]] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
rm -rf "$work/inputs" "$work/trips"

# GNUstep reads its configuration, not HOME: confine it to the work folder.
mkdir -p "$work/gnustep/defaults" "$work/gnustep/home"
printf 'GNUSTEP_USER_DEFAULTS_DIR=%s\nGNUSTEP_USER_DIR=%s\n' \
  "$work/gnustep/defaults" "$work/gnustep/home/GNUstep" > "$work/gnustep/GNUstep.conf"
export GNUSTEP_CONFIG_FILE="$work/gnustep/GNUstep.conf" HOME="$work/gnustep/home"
export TZ=UTC LC_ALL=C

echo "== building the drivers" >&2
swiftc -O "$here/cf_driver.swift" -o "$work/bin/cf-driver" 2>"$work/build.log" \
  || { cat "$work/build.log" >&2; exit 70; }
# shellcheck disable=SC2046  # the flag strings must be word-split
gcc $(gnustep-config --objc-flags) "$here/gnustep_driver.m" -o "$work/bin/gnustep-driver" \
  $(gnustep-config --base-libs) 2>"$work/build.log" || { cat "$work/build.log" >&2; exit 70; }
swift build --product plist-probe >&2
cp "$(swift build --show-bin-path)/plist-probe" "$work/bin/"

echo "== $count inputs" >&2
python3 "$here/generate.py" "$work" --count "$count" --seed "$seed" "${extra[@]}"
python3 "$here/differential.py" "$work" --bin "$work/bin" "${smoke[@]}"
