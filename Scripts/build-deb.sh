#!/usr/bin/env bash
# Builds the Debian package of prefs from the release build:
#   Scripts/build-deb.sh [OUTDIR]        → OUTDIR/prefs_<version>_<arch>.deb (default .build/deb)
# It holds /usr/bin/prefs, its manual page, the bash and zsh completions, and registers the
# names `defaults` and `plutil` with update-alternatives (Packaging/debian/postinst says at
# which priority, and when not); /usr/lib/prefs/macos-bin (the two names, for PATH) and
# /usr/sbin/prefs-names (takes the names in /usr/bin from another package, on request). Install it with `sudo dpkg -i prefs_<version>_<arch>.deb`.
set -euo pipefail
cd "$(dirname "$0")/.."

# The release build, as the README installs it (Scripts/build-release.sh says what it is).
out="$(mkdir -p "${1:-.build/deb}" && cd "${1:-.build/deb}" && pwd)"
bin="$(Scripts/build-release.sh)"
version="$("$bin" --version | awk '{print $2}')"
arch="$(dpkg --print-architecture)"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
root="$stage/prefs_${version}_${arch}"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/doc/prefs"
# Stripped as Debian ships executables; the Swift metadata lives in sections, not symbols.
install -m 0755 "$bin" "$root/usr/bin/prefs"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/prefs"
"$root/usr/bin/prefs" man | gzip -9n > "$root/usr/share/man/man1/prefs.1.gz"
"$root/usr/bin/prefs" completion bash > "$root/usr/share/bash-completion/completions/prefs"
"$root/usr/bin/prefs" completion zsh > "$root/usr/share/zsh/vendor-completions/_prefs"
chmod 0644 "$root/usr/share/bash-completion/completions/prefs" \
  "$root/usr/share/zsh/vendor-completions/_prefs"
install -m 0644 Packaging/debian/copyright "$root/usr/share/doc/prefs/copyright"
sed "s/@VERSION@/$version/; s/@DATE@/$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")/" \
  Packaging/debian/changelog | gzip -9n > "$root/usr/share/doc/prefs/changelog.gz"
install -m 0755 Packaging/debian/postinst Packaging/debian/prerm "$root/DEBIAN/"
# The macOS names beside GNUstep: a folder to put first in PATH, and prefs-names to take the
# names in /usr/bin on request (Docs/install.md).
install -d "$root/usr/lib/prefs/macos-bin" "$root/usr/sbin" "$root/usr/share/lintian/overrides"
ln -s ../../../bin/prefs "$root/usr/lib/prefs/macos-bin/defaults"
ln -s ../../../bin/prefs "$root/usr/lib/prefs/macos-bin/plutil"
install -m 0755 Packaging/debian/prefs-names "$root/usr/sbin/prefs-names"
install -d "$root/usr/share/man/man8"
gzip -9n < Packaging/debian/prefs-names.8 > "$root/usr/share/man/man8/prefs-names.8.gz"
install -m 0644 Packaging/debian/lintian-overrides "$root/usr/share/lintian/overrides/prefs"

# What the binary links, as the packages dpkg-shlibdeps finds for them: nothing for the fully
# static build (then no Depends line at all); the C library and the C++ runtime for a build
# with the Swift runtime inside, should SWIFT_BUILD_FLAGS say so.
mkdir -p "$stage/debian"
printf 'Source: prefs\n\nPackage: prefs\nArchitecture: any\n' > "$stage/debian/control"
depends="$(cd "$stage" && dpkg-shlibdeps -O "prefs_${version}_${arch}/usr/bin/prefs" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
sed "s/@VERSION@/$version/; s/@ARCH@/$arch/; s/@DEPENDS@/$depends/; s/@SIZE@/$size/" \
  Packaging/debian/control | { if [ -n "$depends" ]; then cat; else grep -v '^Depends:'; fi; } \
  > "$root/DEBIAN/control"

find "$root" -type d -exec chmod 0755 {} +
deb="$out/prefs_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
