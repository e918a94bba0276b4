#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/Targets and runs them, one at a time.
#
#   Fuzz/run.sh [--seconds N] [--keep-going] [--corpus DIR] [--artifacts DIR] [TARGET...] \
#               [-- LIBFUZZER-FLAG...]
#
#   --seconds N      fuzz each target N seconds (default 10)
#   --keep-going     libFuzzer fork mode: record crashes, timeouts and OOMs and go on fuzzing
#                    (default: stop a target at its first finding)
#   --corpus DIR     keep each target's corpus in DIR/<target> (created and seeded when
#                    missing, reused otherwise); default: a fresh temporary copy of the seeds
#   --artifacts DIR  where reproducers go (DIR/<target>/crash-…); default: the work folder
#   --build-only     build and stop
#   TARGET           binary xml openstep sniff plan dialects stream (default: all)
#
# Environment: FUZZ_BUILD (build cache, default /tmp/prefs-fuzz-build), SWIFTC (default: swiftc
# on PATH, else /opt/swift/usr/bin/swiftc), FUZZ_WORK (work folder, default: mktemp -d),
# FUZZ_MASK (comma-separated known findings the targets skip; see Fuzz/Support/Harness.swift).
# Exits 1 when any target found a crash, timeout or OOM (or a build failed), else 0.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
all_targets=(binary xml openstep sniff plan dialects stream)

seconds=10
keep_going=0
corpus_root=""
artifacts_root=""
build_only=0
targets=()
extra=()
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seconds=*) seconds="${1#*=}"; shift ;;
    --keep-going) keep_going=1; shift ;;
    --corpus) corpus_root="$2"; shift 2 ;;
    --artifacts) artifacts_root="$2"; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *)
      [[ " ${all_targets[*]} " == *" $1 "* ]] || { echo "run.sh: unknown target $1" >&2; exit 2; }
      targets+=("$1"); shift ;;
  esac
done
((${#targets[@]})) || targets=("${all_targets[@]}")
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "run.sh: --seconds takes a whole number" >&2; exit 2; }

swiftc="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
[[ -x "$swiftc" ]] || { echo "run.sh: swiftc not found (set SWIFTC)" >&2; exit 2; }
build="${FUZZ_BUILD:-/tmp/prefs-fuzz-build}"
mkdir -p "$build"

# --- Build -------------------------------------------------------------------------------
# The four library modules, in dependency order, each a static library instrumented for
# libFuzzer (coverage + comparisons) and AddressSanitizer, then one executable per target.
# Everything is rebuilt when any input (sources, harness, compiler) changes.
modules=(PropertyList LegacyDefaults Preferences PreferencesMigration)
# One package name, as SwiftPM gives: the modules share their `package` declarations.
swiftflags=(-O -g -sanitize=fuzzer,address -parse-as-library -wmo -package-name prefs)

stamp_of() {
  {
    "$swiftc" --version 2>&1
    printf '%s\n' "${swiftflags[@]}"
    find "$root/Sources/PropertyList" "$root/Sources/LegacyDefaults" "$root/Sources/Preferences" \
      "$root/Sources/PreferencesMigration" "$root/Sources/CSystemCalls" "$here/Targets" \
      "$here/Support" "$here/Tools" -type f \( -name '*.swift' -o -name '*.[ch]' \) -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
  } | sha256sum | cut -d' ' -f1
}

build_all() {
  local lib_dir="$build/lib" bin_dir="$build/bin" module
  rm -rf "$lib_dir" "$bin_dir"
  mkdir -p "$lib_dir" "$bin_dir"
  # The C target LegacyDefaults imports (openat2, per-thread credentials): a static library and
  # the module map SwiftPM would generate for it.
  echo "run.sh: building CSystemCalls" >&2
  local c_include="$root/Sources/CSystemCalls/include" clang
  clang="$(dirname "$swiftc")/clang"
  [[ -x "$clang" ]] || clang="$(command -v clang || command -v cc)"
  mkdir -p "$build/obj/CSystemCalls" "$lib_dir/CSystemCalls"
  "$clang" -O2 -g -fsanitize=fuzzer-no-link,address -I "$c_include" \
    -c "$root/Sources/CSystemCalls/CSystemCalls.c" -o "$build/obj/CSystemCalls/CSystemCalls.o"
  ar rcs "$lib_dir/libCSystemCalls.a" "$build/obj/CSystemCalls/CSystemCalls.o"
  printf 'module CSystemCalls {\n  header "%s"\n  export *\n}\n' "$c_include/CSystemCalls.h" \
    >"$lib_dir/CSystemCalls/module.modulemap"
  for module in "${modules[@]}"; do
    echo "run.sh: building $module" >&2
    mkdir -p "$build/obj/$module"
    (cd "$build/obj/$module" &&
      "$swiftc" "${swiftflags[@]}" -emit-library -static -emit-module -module-name "$module" \
        -I "$lib_dir" -Xcc -fmodule-map-file="$lib_dir/CSystemCalls/module.modulemap" \
        "$root/Sources/$module"/*.swift \
        -o "$lib_dir/lib$module.a" -emit-module-path "$lib_dir/$module.swiftmodule")
  done
  local libs=() target link=()
  # The toolchain's lld links cleanly; the system's gold warns about every ASan helper.
  [[ -x "$(dirname "$swiftc")/ld.lld" ]] && link=(-use-ld=lld)
  for ((i = ${#modules[@]} - 1; i >= 0; i--)); do libs+=("-l${modules[i]}"); done
  libs+=(-lCSystemCalls)
  for target in "${all_targets[@]}"; do
    echo "run.sh: building target $target" >&2
    mkdir -p "$build/obj/fuzz-$target"
    (cd "$build/obj/fuzz-$target" &&
      "$swiftc" "${swiftflags[@]}" -module-name "fuzz_$target" "${link[@]}" -I "$lib_dir" -L "$lib_dir" \
        -Xcc -fmodule-map-file="$lib_dir/CSystemCalls/module.modulemap" \
        "$here/Targets/$target.swift" "$here/Support/Harness.swift" "${libs[@]}" \
        -o "$bin_dir/fuzz-$target")
  done
  echo "run.sh: building seed-strings" >&2
  (cd "$build/obj" && "$swiftc" -O "$here/Tools/SeedStrings.swift" -o "$bin_dir/seed-strings")
}

# The build folder is shared (CI, people, several runs): one builder at a time, and every run
# fuzzes private copies of the executables, so a rebuild never pulls them from under a running
# (fork-mode) fuzzer.
if command -v flock >/dev/null; then
  exec 9>"$build/.lock"
  flock 9
fi
stamp="$(stamp_of)"
if [[ "$(cat "$build/stamp" 2>/dev/null || true)" != "$stamp" ]]; then
  rm -f "$build/stamp"
  build_all
  echo "$stamp" >"$build/stamp"
else
  echo "run.sh: build is up to date ($build)" >&2
fi
if ((build_only)); then exit 0; fi

own_work=0
if [[ -n "${FUZZ_WORK:-}" ]]; then
  work="$FUZZ_WORK"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/prefs-fuzz.XXXXXX")"
  own_work=1
fi
mkdir -p "$work/bin"
cp "$build/bin/seed-strings" "$work/bin/"
for target in "${targets[@]}"; do cp "$build/bin/fuzz-$target" "$work/bin/"; done
if command -v flock >/dev/null; then exec 9>&-; fi

# --- Seeds -------------------------------------------------------------------------------
fixtures="$root/Tests/PropertyListTests/Fixtures"
regressions="$fixtures/fuzz-regressions"

seed() { # seed TARGET DIR: copy the seed corpus of TARGET into DIR
  local target="$1" dir="$2" f
  mkdir -p "$dir"
  for f in "$fixtures"/valid/* "$fixtures"/hostile/* "$fixtures"/hostile-ok/*; do
    [[ -f "$f" ]] && cp "$f" "$dir/"
  done
  case "$target" in
    plan)
      cp "$root/Legacy/Samples/equizmo-plan.json" "$here"/Seeds/plan/*.json "$dir/"
      ;;
    dialects)
      "$work/bin/seed-strings" "$root/Tests/LegacyDefaultsTests/Fixtures/dialect-corpus.keys.json" \
        "$dir" >/dev/null
      cp "$root"/Tests/LegacyDefaultsTests/Fixtures/dialect-corpus.*.plist "$dir/"
      ;;
  esac
  # Earlier findings of this target are part of its corpus: a regression shows at once.
  for f in "$regressions/$target"-*; do
    [[ -f "$f" ]] && cp "$f" "$dir/"
  done
  return 0
}

# --- Run ---------------------------------------------------------------------------------
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}"
# Swift's own crash backtracer reads memory ASan calls wild and clutters the report; libFuzzer
# and ASan print the stack.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
failed=0
summary=()
for target in "${targets[@]}"; do
  if [[ -n "$corpus_root" ]]; then
    corpus="$corpus_root/$target"
    [[ -d "$corpus" ]] || seed "$target" "$corpus"
    for f in "$regressions/$target"-*; do [[ -f "$f" ]] && cp "$f" "$corpus/"; done
  else
    corpus="$work/corpus/$target"
    seed "$target" "$corpus"
  fi
  artifacts="${artifacts_root:-$work/artifacts}/$target"
  mkdir -p "$artifacts"
  log="$work/$target.log"
  # Longest input: 64 KiB, 1 KiB for `dialects` (its getters are linear in the string with a
  # large constant under ASan; see README). Seeds above it are truncated. A later -max_len
  # after `--` wins.
  max_len=65536
  [[ "$target" == dialects ]] && max_len=1024
  flags=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=5 -max_len="$max_len"
    -print_final_stats=1 -artifact_prefix="$artifacts/")
  if ((keep_going)); then
    flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  echo "run.sh: fuzzing $target for ${seconds}s (log: $log)" >&2
  rc=0
  "$work/bin/fuzz-$target" "${flags[@]}" "${extra[@]}" "$corpus" >"$log" 2>&1 || rc=$?

  # Executions: the final stats (plain mode) or the last status line (fork mode).
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  [[ -n "$execs" ]] || execs="$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -1)"
  cov="$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 || true)"
  found=()
  for kind in crash timeout oom leak slow-unit; do
    n=$(find "$artifacts" -maxdepth 1 -name "$kind-*" | wc -l)
    ((n)) && [[ "$kind" != slow-unit ]] && found+=("$n $kind")
  done
  if ((${#found[@]})) || ((rc != 0)); then
    failed=1
    detail="$(IFS=,; echo "${found[*]:-exit $rc}")"
    result="FAILED ($detail; reproducers in $artifacts; log $log)"
  else
    result="ok"
  fi
  summary+=("$(printf '%-9s %12s execs  %-22s %s' "$target" "${execs:-?}" "${cov:-cov: ?}" "$result")")
done

echo
echo "fuzz results (${seconds}s per target):"
printf '%s\n' "${summary[@]}"
if ((failed)); then
  echo "run.sh: findings above; replay: $work/bin/fuzz-TARGET FILE;" \
    "minimize: $work/bin/fuzz-TARGET -minimize_crash=1 -runs=20000 FILE" >&2
fi
# A temporary work folder is kept only when it holds findings (reproducers and logs).
if ((own_work && !failed)) && [[ -z "$corpus_root" && -z "$artifacts_root" ]]; then
  rm -rf "$work"
fi
exit "$failed"
