#!/bin/sh
# Renders the gallery in Docs/gallery/ with meshgeo itself: each bundled example as a PNG of its
# layer (the default checkerboard content) mapped through the mesh, about 256 pixels on the
# longer side. See Docs/rendering.md.
#
#   scripts/make-gallery.sh                  # builds meshgeo (release) first
#   MESHGEO=path/to/meshgeo scripts/make-gallery.sh
set -eu
cd "$(dirname "$0")/.."

if [ -z "${MESHGEO:-}" ]; then
    scratch="${SCRATCH_PATH:-.build}"
    swift build -c release --product meshgeo --scratch-path "$scratch"
    MESHGEO="$scratch/release/meshgeo"
fi

out=Docs/gallery
mkdir -p "$out"

# name, scale (pixels per point), extra options
render() {
    name=$1
    scale=$2
    shift 2
    "$MESHGEO" render "Examples/$name.json" -o "$out/$name.png" --scale "$scale" "$@"
    echo "$out/$name.png"
}

render wavy 0.8                                # 320 × 120 points → 256 × 96
render ripple 256                              # 1 × 1 point, tilted 45° in perspective, lit by its light (0, 0, 1)
render skew 0.64                               # 400 × 300 → 256 × 192
render curl 0.64                               # 300 × 400 → 192 × 256
render cylinder 0.8                            # 320 × 240 → 256 × 192
render split 0.8                               # 320 × 320 → 256 × 256
render lit 0.8                                 # 320 × 240, tilted in perspective, under a point light and a spot
