#!/usr/bin/env bash
# Every ```swift block of the documents, compiled as written, from a package of its own (as a
# reader who pastes it builds it): README.md, MIGRATION.md, Docs/*.md and the DocC articles
# (Sources/*/*.docc/*.md). A temporary package depends on this one by path and holds one
# executable target per block, the block as its main.swift, so that blocks never share names;
# one `swift build` compiles them all. No import is added that the reader does not see.
#
# A block that is not a program on its own says so in an HTML comment on the line before it
# (blank lines between are allowed), which this script reads:
#   <!-- fragment: continues the block above -->
#       appended to the block before it in the same document (one program of both);
#   <!-- fragment: imports A, B; inside a throwing function of NAME: TYPE, … -->
#   <!-- fragment: imports A, B; inside an async throwing function of NAME: TYPE, … -->
#       compiled inside `func fragment(NAME: TYPE, …) [async] throws { … }` after `import A`,
#       `import B` (the block's own `import` lines stay at the top of the file). Either part may
#       be left out: `imports A` alone, or `inside a throwing function of store: PreferencesStore`.
#   <!-- run: NAME -->
#       compiled as any block, and also run: its text is a file of a target whose main.swift is
#       this script's check NAME (below), which calls what the block declares and prints one
#       `ok   …` or `FAIL …` line a check.
#   <!-- package: Package.swift -->  …  <!-- package: main.swift -->
#       a package manifest as a reader's own package writes it, and the program of its one
#       executable target: built as a package of their own in KEEP_DIR/Dependent, with this
#       package as the folder `prefs` beside it (a link), so `.package(path: "../prefs")` and
#       `package: "prefs"` resolve exactly as written.
# Any other marker before a swift block is an error: a marker the script cannot read is a
# block it would compile wrongly.
#
# Prints `ok   the blocks compile as written (N blocks from M documents)` and the checks; exit status 0 when every block
# compiled and every check passed. Usage: Scripts/doc-blocks.sh [KEEP_DIR] (a KEEP_DIR is kept,
# and a second run in it builds only what changed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
[ -n "${1:-}" ] || trap 'rm -rf "$work"' EXIT
command -v python3 >/dev/null || { echo "doc-blocks.sh needs python3" >&2; exit 1; }
# A dependency by path is named by its folder.
identity="$(basename "$root" | tr "[:upper:]" "[:lower:]")"
package="$work/DocBlocks"
mkdir -p "$package"

python3 - "$root" "$package" "$identity" <<'PYTHON'
import glob, os, re, shutil, sys

root, package, identity = sys.argv[1:4]
documents = (["README.md", "MIGRATION.md"] + sorted(glob.glob("Docs/*.md", root_dir=root))
             + sorted(glob.glob("Sources/*/*.docc/*.md", root_dir=root)))

FRAGMENT = re.compile(
    r"^fragment:\s*(?:imports\s+(?P<imports>[A-Za-z_][\w, ]*?))?\s*;?\s*"
    r"(?:inside an? (?P<async>async )?throwing function of (?P<params>.+?))?\s*$")


class Unit:
    def __init__(self, document, line):
        self.document, self.line = document, line
        self.imports, self.params, self.is_async = [], None, False
        self.blocks = []
        self.run = None

    def source(self):
        body = "\n".join(self.blocks).split("\n")
        own = [l for l in body if l.startswith("import ")]
        rest = [l for l in body if not l.startswith("import ")]
        head = ["import " + name for name in self.imports] + own
        if self.params is None:
            return "\n".join(head + rest) + "\n"
        effects = "async throws" if self.is_async else "throws"
        return "\n".join(
            head + ["", "func fragment(%s) %s {" % (self.params, effects)]
            + ["  " + l if l else l for l in rest] + ["}"]) + "\n"


def fail(where, message):
    sys.exit("%s: %s" % (where, message))


units, blocks = [], 0
dependent = {}
for document in documents:
    lines = open(os.path.join(root, document), encoding="utf-8").read().split("\n")
    previous = None
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        indent, language = fence.group(1), fence.group(2)
        end = i + 1
        while end < len(lines) and not re.match(r"^\s*```\s*$", lines[end]):
            end += 1
        if end == len(lines):
            fail("%s:%d" % (document, i + 1), "a code block that never ends")
        if language != "swift":
            i = end + 1
            continue
        where = "%s:%d" % (document, i + 1)
        text = "\n".join(l[len(indent):] if l.startswith(indent) else l.lstrip()
                         for l in lines[i + 1:end])
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        comment = re.match(r"^\s*<!--\s*(.*?)\s*-->\s*$", lines[j]) if j >= 0 else None
        marker = comment.group(1) if comment else None
        blocks += 1
        if marker in ("package: Package.swift", "package: main.swift"):
            part = marker.split(": ", 1)[1]
            if part in dependent:
                fail(where, "a second " + part + " block (one dependent package only)")
            dependent[part] = (where, text)
            i = end + 1
            continue
        if marker == "fragment: continues the block above":
            if previous is None:
                fail(where, "continues a block, but none comes before it")
            previous.blocks.append(text)
        else:
            unit = Unit(document, i + 1)
            unit.blocks.append(text)
            if marker and marker.startswith("fragment:"):
                m = FRAGMENT.match(marker)
                if not m or not (m.group("imports") or m.group("params")):
                    fail(where, "a fragment marker this script cannot read: " + marker)
                if m.group("imports"):
                    unit.imports = [n.strip() for n in m.group("imports").split(",") if n.strip()]
                if m.group("params"):
                    unit.params = m.group("params").replace("`", "")
                    unit.is_async = bool(m.group("async"))
            elif marker and marker.startswith("run:"):
                unit.run = marker[len("run:"):].strip()
            elif marker and (marker.startswith("fragment") or marker.startswith("run")):
                fail(where, "a marker this script cannot read: " + marker)
            units.append(unit)
            previous = unit
        i = end + 1

sources = os.path.join(package, "Sources")
shutil.rmtree(sources, ignore_errors=True)
targets = []
for n, unit in enumerate(units, 1):
    slug = re.sub(r"\W", "_", os.path.basename(unit.document).rsplit(".", 1)[0])
    name = "B%03d_%s_L%d" % (n, slug, unit.line)
    os.makedirs(os.path.join(sources, name))
    with open(os.path.join(sources, name, "main.swift"), "w", encoding="utf-8") as f:
        f.write("// %s, line %d\n" % (unit.document, unit.line) + unit.source())
    targets.append(name)
    if unit.run:
        check = os.path.join(root, "Scripts", "DocBlocks", unit.run + ".swift")
        if not os.path.exists(check):
            fail("%s:%d" % (unit.document, unit.line), "no check Scripts/DocBlocks/%s.swift" % unit.run)
        run = "Run_" + re.sub(r"\W", "_", unit.run)
        os.makedirs(os.path.join(sources, run))
        shutil.copy(check, os.path.join(sources, run, "main.swift"))
        with open(os.path.join(sources, run, "Block.swift"), "w", encoding="utf-8") as f:
            f.write(unit.source())
        targets.append(run)

products = ["PropertyList", "LegacyDefaults", "LegacyDefaultsFoundation", "Preferences",
            "PreferencesMigration", "PreferencesExamples"]
dependencies = ", ".join('.product(name: "%s", package: "%s")' % (p, identity) for p in products)
manifest = ["// swift-tools-version:6.0", "import PackageDescription", "",
            "let dependencies: [Target.Dependency] = [%s]" % dependencies, "",
            "let package = Package(", '  name: "DocBlocks",', "  platforms: [.macOS(.v15)],",
            '  dependencies: [.package(path: "%s")],' % root, "  targets: ["]
manifest += ['    .executableTarget(name: "%s", dependencies: dependencies),' % t for t in targets]
manifest += ["  ],", "  swiftLanguageModes: [.v6]", ")", ""]
open(os.path.join(package, "Package.swift"), "w").write("\n".join(manifest))
open(os.path.join(package, "runs.txt"), "w").write(
    "".join("Run_%s\n" % re.sub(r"\W", "_", u.run) for u in units if u.run))
if dependent:
    if set(dependent) != {"Package.swift", "main.swift"}:
        fail(next(iter(dependent.values()))[0], "a package block without its other half")
    app = os.path.join(os.path.dirname(package), "Dependent", "MyApp")
    shutil.rmtree(os.path.join(app, "Sources"), ignore_errors=True)
    name = re.search(r'name:\s*"([^"]+)"', dependent["Package.swift"][1])
    if not name:
        fail(dependent["Package.swift"][0], "a manifest that names no package")
    target = re.search(r'executableTarget\(\s*name:\s*"([^"]+)"', dependent["Package.swift"][1])
    if not target:
        fail(dependent["Package.swift"][0], "a manifest without an executable target")
    os.makedirs(os.path.join(app, "Sources", target.group(1)))
    open(os.path.join(app, "Package.swift"), "w").write(dependent["Package.swift"][1] + "\n")
    open(os.path.join(app, "Sources", target.group(1), "main.swift"), "w").write(
        dependent["main.swift"][1] + "\n")
    link = os.path.join(os.path.dirname(app), "prefs")
    if os.path.islink(link):
        os.remove(link)
    os.symlink(root, link)
    open(os.path.join(package, "dependent.txt"), "w").write(app + "\n")
open(os.path.join(package, "count.txt"), "w").write(
    "%d blocks from %d documents" % (blocks, len(documents)))
PYTHON

echo "== building the blocks (one package, a target a block)" >&2
(cd "$package" && swift build) >&2 || {
  echo "FAIL the blocks compile as written (the errors are above; the files: $package)"
  exit 1
}
echo "ok   the blocks compile as written ($(cat "$package/count.txt"))"
if [ -f "$package/dependent.txt" ]; then
  app="$(cat "$package/dependent.txt")"
  echo "== building the README's own package (its manifest and main.swift as written)" >&2
  if (cd "$app" && swift build) >&2 && [ "$(cd "$app" && "$(swift build --show-bin-path)/MyApp")" = "false 1" ]; then
    echo "ok   a package of one's own builds with the README's dependency and products, and runs"
  else
    echo "FAIL a package of one's own builds with the README's dependency and products, and runs ($app)"
    exit 1
  fi
fi
bin="$(cd "$package" && swift build --show-bin-path)"
status=0
while read -r run; do
  data="$work/data-$run"
  rm -rf "$data" && mkdir -p "$data/config"
  XDG_CONFIG_HOME="$data/config" "$bin/$run" "$data" || status=1
done < "$package/runs.txt"
exit "$status"
