#!/usr/bin/env bash
# Checks that the fully static prefs (Scripts/build-release.sh) holds no entry point to glibc's
# name service, dynamic loading, character set modules or locale loading, so that no code path
# of it can enter them, whatever it is given (issue 50):
#   Scripts/static-libc-check.sh PREFS      → exit 0, or 1 and the symbols that are there
# Two lists, both read from the binary's own symbol table (`nm`):
#  1. every function of libc.a that the GNU linker warns about in a static link ("Using 'X' in
#     statically linked applications requires at runtime the shared libraries…", its
#     `.gnu.warning.X` sections, read from libc.a itself), but three: mktemp's (a warning about
#     races, not the name service; prefs makes its files with O_EXCL), and dlopen's and
#     dlmopen's, which glibc links into every static binary through `_dlfcn_hook` (the table
#     `__rtld_static_init` gives a C library that a dlopen has loaded: used only after one),
#     and which nothing else refers to (every reference is --wrap'ed to NameServiceWraps.h in CSystemCalls.c);
#  2. the machinery behind them that can be left out: the name service switch
#     (__nss_database_get, __nss_lookup_function, __nss_module_load) and locale loading
#     (setlocale, newlocale's own __newlocale, _nl_find_locale, _nl_load_locale_from_archive).
#     What glibc's own objects keep linked (printf's wide output, assert's gettext): _dl_open,
#     __libc_dlopen_mode and __gconv_find_shlib, reached only by a gconv conversion that is not
#     built in, which needs iconv_open (wrapped), a locale other than C (none can be loaded:
#     list 2) or a message catalog (read only outside the C locale): Docs/security.md.
set -euo pipefail
prefs="${1:?usage: static-libc-check.sh PREFS}"
command -v nm >/dev/null || { echo "static-libc-check: nm (binutils) is needed" >&2; exit 2; }
libc="$(cc -print-file-name=libc.a 2>/dev/null || true)"
[ -f "$libc" ] || libc=/usr/lib/x86_64-linux-gnu/libc.a
warned=""
if [ -f "$libc" ] && command -v objdump >/dev/null; then
  warned="$(objdump -h "$libc" 2>/dev/null | grep -o '\.gnu\.warning\.[A-Za-z0-9_]*' \
    | sed 's/^\.gnu\.warning\.//' | sort -u | grep -vxE 'mktemp|dlopen|dlmopen' || true)"
fi
machinery="__nss_database_get __nss_lookup_function __nss_module_load setlocale __newlocale
_nl_find_locale _nl_load_locale_from_archive"
defined="$(nm "$prefs" | awk 'NF == 3 && $2 ~ /^[TtWwDdBbRr]$/ { print $3 }' | sort -u)"
found="$(comm -12 <(printf '%s\n' $warned $machinery | sort -u) <(printf '%s\n' "$defined"))"
if [ -n "$found" ]; then
  echo "static-libc-check: $prefs can reach glibc's name service or locale loading:" >&2
  printf '  %s\n' $found >&2
  exit 1
fi
count="$(printf '%s\n' $warned $machinery | sort -u | wc -l)"
echo "static-libc-check: none of $count symbols in $prefs" >&2
