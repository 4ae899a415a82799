#!/bin/bash
# The public API of the library products, from their symbol graphs, and a check that no benchmark
# code is part of it (Docs/contributing.md).
#   scripts/public-symbols.sh           # fails (exit 1) if a Benchmark symbol is public
#   scripts/public-symbols.sh --list    # also prints every public symbol: module, kind, path
# Builds the package (debug) as `swift package dump-symbol-graph` does. SPI symbols count as public.
set -euo pipefail
cd "$(dirname "$0")/.."
list=${1:-}
swift package dump-symbol-graph --minimum-access-level public --include-spi-symbols >/dev/null
graphs=$(find .build -type d -name symbolgraph -path "*/$(uname -m)*" | head -n 1)
[ -n "$graphs" ] || graphs=$(find .build -type d -name symbolgraph | head -n 1)
[ -n "$graphs" ] || { echo "public-symbols: no symbol graphs under .build" >&2; exit 2; }
python3 - "$graphs" "$list" <<'PY'
import json, os, sys
folder, listing = sys.argv[1], sys.argv[2] == "--list"
modules = ["SurfaceKit", "MeshTessellate", "MeshRender"]
found, offending = {m: 0 for m in modules}, []
for name in sorted(os.listdir(folder)):
    # MODULE.symbols.json, and MODULE@OTHER.symbols.json for extensions of other modules' types.
    module = name.split(".")[0].split("@")[0]
    if module not in modules or not name.endswith(".symbols.json"):
        continue
    with open(os.path.join(folder, name)) as f:
        graph = json.load(f)
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        path = ".".join(symbol["pathComponents"])
        found[module] += 1
        if listing:
            print(f"{module}\t{symbol['kind']['identifier']}\t{path}")
        if "benchmark" in path.lower():
            offending.append(f"{module}: {path}")
for module in modules:
    if found[module] == 0:
        sys.exit(f"public-symbols: no public symbols found for {module} (no symbol graph?)")
print(", ".join(f"{m} {found[m]} public symbols" for m in modules), file=sys.stderr)
if offending:
    print("public-symbols: benchmark code in the public API:", *offending, sep="\n  ", file=sys.stderr)
    sys.exit(1)
PY
