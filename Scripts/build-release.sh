#!/usr/bin/env bash
# The release build of prefs, the one recipe the README's Install, Scripts/build-deb.sh, .ci/run
# and the benchmark use:
#   Scripts/build-release.sh        → builds, then prints the path of the prefs it built
# On Linux, one fully static executable (no dynamic loader, no shared library), its generic
# metadata made by direct calls rather than by demangling a name at first use, and its code
# and data laid out in the order a small command first touches them (Packaging/prefs.order,
# written by Scripts/make-order-file.sh): each function in a section of its own, linked by the
# toolchain's lld. A start then maps about half the pages it otherwise does (BENCHMARKS.md,
# issue 37). Without lld beside swiftc, the same build without the layout, said on standard
# error. Elsewhere (macOS), the plain release build.
# A static glibc program must never enter the name service switch, dlopen, gconv or locale
# loading (it crashes on a user /etc/passwd does not hold: issue 50): on Linux every entry point
# to them is linked to prefs' own (--wrap=NAME, Sources/CSystemCalls/NameServiceWraps.h in CSystemCalls.c: the local
# files, then /usr/bin/getent; or a documented "not available"), and Scripts/static-libc-check.sh
# then fails the build if any of that machinery is still in the binary. The debug build and
# the tests link glibc's own, dynamically.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product prefs)
if [ "$(uname -s)" = Linux ]; then
  flags+=(-Xswiftc -static-executable
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
  for name in getpwnam getpwnam_r getpwuid getpwuid_r getgrnam getgrnam_r getgrgid getgrgid_r \
    getgrouplist initgroups getaddrinfo gethostbyname gethostbyname2 gethostbyname_r \
    gethostbyname2_r gethostbyaddr gethostbyaddr_r iconv_open newlocale dlopen dlmopen dlerror; do
    flags+=(-Xlinker "--wrap=$name")
  done
  toolchain="$(dirname "$(readlink -f "$(command -v swiftc)")")"
  if [ -x "$toolchain/ld.lld" ] || command -v ld.lld >/dev/null; then
    flags+=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld
      -Xlinker "--symbol-ordering-file=$PWD/Packaging/prefs.order"
      -Xlinker --no-warn-symbol-ordering)
  else
    echo "build-release: no ld.lld beside swiftc: built without the start-up layout" >&2
  fi
fi
swift build "${flags[@]}" >&2
prefs="$(swift build "${flags[@]}" --show-bin-path)/prefs"
if [ "$(uname -s)" = Linux ]; then Scripts/static-libc-check.sh "$prefs"; fi
echo "$prefs"
