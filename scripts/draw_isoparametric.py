#!/usr/bin/env python3
"""Draws the isoparametric curves of the surfaces in a STEP or IGES file, as OpenCASCADE reads
them (through gmsh's Python module), into an SVG.

Usage: draw_isoparametric.py FILE OUTPUT.svg|OUTPUT.png [LINES_PER_UNIT] [TILT_DEGREES]

A PNG needs Pillow (pip install pillow); an SVG needs nothing more.

Curves run at every 1/LINES_PER_UNIT of each parameter (default 4); those at whole parameters
(the knots of a grid's surface, the control faces' edges) are drawn darker. The view looks at the
points-space surface (y down) tilted about the x axis by TILT_DEGREES (default 50), so that depth
shows as height.
"""
import math
import sys

import gmsh


def main():
    path, output = sys.argv[1], sys.argv[2]
    per_unit = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    tilt = math.radians(float(sys.argv[4]) if len(sys.argv) > 4 else 50)
    gmsh.initialize(readConfigFiles=False)
    gmsh.option.setNumber("General.Terminal", 0)
    try:
        entities = gmsh.model.occ.importShapes(path, highestDimOnly=True)
        gmsh.model.occ.synchronize()
        curves = []
        for dim, tag in entities:
            if dim != 2:
                continue
            low, high = gmsh.model.getParametrizationBounds(dim, tag)
            for axis in (0, 1):
                other = 1 - axis
                first, last = math.ceil(low[axis] * per_unit - 1e-9), math.floor(high[axis] * per_unit + 1e-9)
                for k in range(first, last + 1):
                    fixed = k / per_unit
                    samples = [low[other] + (high[other] - low[other]) * i / 64 for i in range(65)]
                    parameters = []
                    for t in samples:
                        parameters += [fixed, t] if axis == 0 else [t, fixed]
                    values = gmsh.model.getValue(dim, tag, parameters)
                    points = [values[3 * i:3 * i + 3] for i in range(len(samples))]
                    curves.append((k % per_unit == 0, points))
    finally:
        gmsh.finalize()

    def project(p):
        x, y, z = p
        return x, y * math.cos(tilt) - z * math.sin(tilt)

    projected = [(major, [project(p) for p in points]) for major, points in curves]
    xs = [x for _, ps in projected for x, _ in ps]
    ys = [y for _, ps in projected for _, y in ps]
    margin = 0.05 * max(max(xs) - min(xs), max(ys) - min(ys))
    x0, y0 = min(xs) - margin, min(ys) - margin
    width, height = max(xs) - x0 + margin, max(ys) - y0 + margin
    scale = 640 / width
    size = (640, round(height * scale))
    styles = {False: ("#9fb4e8", 0.7), True: ("#1f3a93", 1.4)}

    def screen(points):
        return [((x - x0) * scale, (y - y0) * scale) for x, y in points]

    if output.lower().endswith(".png"):
        from PIL import Image, ImageDraw

        # Drawn at four times the size and reduced, which smooths the lines.
        factor = 4
        image = Image.new("RGB", (size[0] * factor, size[1] * factor), "white")
        draw = ImageDraw.Draw(image)
        for major in (False, True):
            colour, stroke = styles[major]
            for is_major, points in projected:
                if is_major == major:
                    draw.line([(x * factor, y * factor) for x, y in screen(points)], fill=colour,
                              width=max(1, round(stroke * factor)), joint="curve")
        image.resize(size, Image.LANCZOS).save(output, optimize=True)
        return
    with open(output, "w") as svg:
        svg.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{size[0]}" height="{size[1]}">\n')
        svg.write('<rect width="100%" height="100%" fill="white"/>\n')
        for major in (False, True):
            colour, stroke = styles[major]
            for is_major, points in projected:
                if is_major != major:
                    continue
                path_text = " ".join(f"{x:.2f},{y:.2f}" for x, y in screen(points))
                svg.write(f'<polyline points="{path_text}" fill="none" stroke="{colour}" stroke-width="{stroke}"/>\n')
        svg.write("</svg>\n")


if __name__ == "__main__":
    main()
