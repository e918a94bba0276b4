#!/usr/bin/env bash
# Regenerate every generated fixture in valid/ (see README.md).
# Needs: python3, plistutil (Debian libplist-utils), gcc with Objective-C
# (gobjc) and GNUstep base (libgnustep-base-dev, gnustep-make for
# gnustep-config).  Idempotent: deletes and rewrites all generated files,
# keeps the hand-written *.strings / *.openstep / *.gnustep sources.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

missing=0
for tool in python3 plistutil gcc gnustep-config; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "make-fixtures.sh: required tool '$tool' not found" >&2
    missing=1
  fi
done
if [ "$missing" -ne 0 ]; then
  echo "make-fixtures.sh: on Debian: apt-get install python3 libplist-utils gobjc gnustep-make libgnustep-base-dev gnustep-base-runtime" >&2
  exit 1
fi

build="$(mktemp -d "${TMPDIR:-/tmp}/prefs-fixtures.XXXXXX")"
trap 'rm -rf "$build"' EXIT

# Keep GNUstep away from the user's home and make its output reproducible.
mkdir -p "$build/home" "$build/defaults"
cat > "$build/GNUstep.conf" <<CONF
GNUSTEP_USER_DEFAULTS_DIR=$build/defaults
GNUSTEP_USER_DIR=$build/home/GNUstep
CONF
export GNUSTEP_CONFIG_FILE="$build/GNUstep.conf"
export HOME="$build/home"
export TZ=UTC LC_ALL=C LANG=C

objc_flags="$(gnustep-config --objc-flags)"
base_libs="$(gnustep-config --base-libs)"
for prog in gnustep_dump gnustep_write; do
  # shellcheck disable=SC2086  # the flag strings must be word-split
  (cd "$build" && gcc $objc_flags "$here/$prog.m" -o "$build/$prog" $base_libs)
done

echo "python:    $(python3 --version 2>&1)"
echo "plistutil: $(plistutil --version 2>&1)"
echo "GNUstep:   $("$build/gnustep_dump" --version)"

mkdir -p "$here/valid"
python3 "$here/make_fixtures.py" "$here/valid" "$build/gnustep_dump" "$build/gnustep_write"
