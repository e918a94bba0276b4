#!/usr/bin/env bash
# Regenerate the dialect corpus and both references' dumps (see DIALECTS.md):
#   builds Legacy/ (GNUstep driver) and Tests/DefaultsProbe (corelibs probe) in a
#   temporary folder, runs make_dialect_corpus.py with them, then checks the
#   dumps against the written-down rules (check_dialect_rules.py).
# Needs: python3, gcc + GNUstep Base (gobjc gnustep-make libgnustep-base-dev),
# swiftc (the toolchain whose corelibs-foundation is the reference).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
for tool in python3 swiftc; do
  command -v "$tool" >/dev/null 2>&1 || { echo "make-dialect-corpus.sh: '$tool' not found" >&2; exit 1; }
done

build="$(mktemp -d "${TMPDIR:-/tmp}/dialect-corpus-build.XXXXXX")"
trap 'rm -rf "$build"' EXIT

"$root/Legacy/build.sh" "$build" >/dev/null
swiftc -O "$root/Tests/DefaultsProbe/main.swift" -o "$build/defaults-probe"

echo "swiftc:  $(swiftc --version 2>&1 | head -1)"
gs_version="$(dpkg-query -W -f '${Version}' libgnustep-base-dev 2>/dev/null || true)"
echo "GNUstep: ${gs_version:-unknown} (libgnustep-base-dev)"
python3 "$here/make_dialect_corpus.py" --driver "$build/prefs-driver" --probe "$build/defaults-probe" "$here"
python3 "$here/check_dialect_rules.py" "$here"
