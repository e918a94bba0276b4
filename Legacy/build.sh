#!/usr/bin/env bash
# Build the legacy Objective-C driver with gcc and GNUstep Base:
#   Legacy/build.sh OUTDIR      ->  OUTDIR/prefs-driver
# Needs (Debian): gobjc gnustep-make libgnustep-base-dev
set -euo pipefail

if [ "$#" -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"

for tool in gcc gnustep-config; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "build.sh: '$tool' not found: GNUstep is missing." >&2
    echo "build.sh: on Debian: apt-get install gobjc gnustep-make libgnustep-base-dev" >&2
    exit 1
  fi
done
objc_flags="$(gnustep-config --objc-flags)" || { echo "build.sh: gnustep-config --objc-flags failed" >&2; exit 1; }
base_libs="$(gnustep-config --base-libs)" || { echo "build.sh: gnustep-config --base-libs failed" >&2; exit 1; }
# shellcheck disable=SC2086  # the flag strings must be word-split
if ! printf '#import <Foundation/Foundation.h>\nint main(void) { return 0; }\n' \
     | (cd "${TMPDIR:-/tmp}" && gcc $objc_flags -x objective-c -fsyntax-only -MF /dev/null - ) >/dev/null 2>&1; then
  echo "build.sh: cannot compile against GNUstep Base (missing headers or Objective-C compiler)." >&2
  echo "build.sh: on Debian: apt-get install gobjc gnustep-make libgnustep-base-dev" >&2
  exit 1
fi

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# gnustep-config's flags include -MMD -MP: run in a scratch folder so the .d
# dependency files do not land in the source tree or OUTDIR.
work="$(mktemp -d "${TMPDIR:-/tmp}/prefs-driver-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086  # the flag strings must be word-split
(cd "$work" && gcc $objc_flags -I"$here" \
   "$here/Preference.m" "$here/PrefsDriver.m" \
   -o "$out/prefs-driver" $base_libs)
echo "$out/prefs-driver"
