#!/usr/bin/env bash
# Builds the DocC documentation of the library targets with the toolchain's bundled `docc`
# (no SwiftPM plugin needed): dumps the symbol graphs once, then converts each target's
# catalog against its own symbol graphs only. Any warning (a broken ``symbol`` link, an
# undocumented parameter, …) fails the build and names the target.
#
#   Scripts/build-docs.sh [OUTDIR]      # OUTDIR/<Target>.doccarchive; default: a temporary folder
#
# Environment: DOCS_SCRATCH (SwiftPM scratch path, default .build/docs), DOCC (the docc binary,
# default: the one next to `swift`).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(PropertyList LegacyDefaults LegacyDefaultsFoundation Preferences PreferencesMigration)

scratch="${DOCS_SCRATCH:-.build/docs}"
out="${1:-$(mktemp -d "${TMPDIR:-/tmp}/prefs-docs.XXXXXX")}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

if [[ -n "${DOCC:-}" ]]; then
  docc="$DOCC"
elif swift_bin="$(command -v swift)" && [[ -x "$(dirname "$(readlink -f "$swift_bin")")/docc" ]]; then
  docc="$(dirname "$(readlink -f "$swift_bin")")/docc"
elif command -v docc >/dev/null; then
  docc="$(command -v docc)"
else
  echo "build-docs: no docc found (set DOCC=/path/to/docc)" >&2
  exit 1
fi

echo "== symbol graphs (scratch: $scratch)"
log="$(mktemp)"
work="$(mktemp -d "${TMPDIR:-/tmp}/prefs-docs-work.XXXXXX")"
trap 'rm -rf "$log" "$work"' EXIT
touch "$work/.started"  # graphs older than this were not written by this run
status=0
swift package --scratch-path "$scratch" dump-symbol-graph >"$log" 2>&1 || status=$?
if ((status != 0)); then
  # SwiftPM on Linux also tries the test runner's modules (<package>PackageTests,
  # <package>PackageDiscoveredTests), which a plain build does not produce, and exits 1 after
  # writing every other graph. Accept that one failure only: any other error stops here, and
  # each target's graph must have been written by this run (checked below).
  other="$(grep '^error: ' "$log" | grep -v "^error: Failed to emit symbol graph for '[A-Za-z0-9_-]*Package\(Discovered\)\{0,1\}Tests'" || true)"
  if [[ -n "$other" ]] || ! grep -q '^Files written to ' "$log"; then
    cat "$log" >&2
    echo "build-docs: swift package dump-symbol-graph failed (exit $status)" >&2
    exit 1
  fi
fi
# SwiftPM prints "Files written to <dir>" (<scratch>/<triple>/symbolgraph).
graphs="$(sed -n 's/^Files written to //p' "$log" | tail -n 1)"
if [[ -z "$graphs" || ! -d "$graphs" ]]; then
  graphs="$(find "$scratch" -type d -name symbolgraph -print -quit 2>/dev/null || true)"
fi
if [[ -z "$graphs" || ! -d "$graphs" ]]; then
  cat "$log" >&2
  echo "build-docs: cannot find the symbol graph folder under $scratch" >&2
  exit 1
fi

failed=()
for target in "${targets[@]}"; do
  echo "== docc convert $target"
  catalog="Sources/$target/$target.docc"
  if [[ ! -d "$catalog" ]]; then
    echo "build-docs: $target: no catalog at $catalog" >&2
    failed+=("$target")
    continue
  fi
  # Only this target's graphs: its own and its extensions of other modules' types.
  # (Links to other modules' symbols do not resolve in a per-target build.)
  sg="$work/$target"
  mkdir -p "$sg"
  shopt -s nullglob
  files=("$graphs/$target.symbols.json" "$graphs/$target"@*.symbols.json)
  shopt -u nullglob
  if [[ ! "$graphs/$target.symbols.json" -nt "$work/.started" ]]; then
    echo "build-docs: $target: $graphs/$target.symbols.json was not written by this run" >&2
    failed+=("$target")
    continue
  fi
  cp "${files[@]}" "$sg/"
  rm -rf "$out/$target.doccarchive"
  if ! "$docc" convert "$catalog" \
    --fallback-display-name "$target" \
    --fallback-bundle-identifier "org.prefs.$target" \
    --additional-symbol-graph-dir "$sg" \
    --output-path "$out/$target.doccarchive" \
    --warnings-as-errors; then
    echo "build-docs: $target: docc reported warnings or errors (see above)" >&2
    failed+=("$target")
  fi
done

if ((${#failed[@]})); then
  echo "build-docs: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "build-docs: ok: ${targets[*]} in $out"
