#!/usr/bin/env python3
"""Reads a STEP or IGES file with OpenCASCADE (through gmsh's Python module) and evaluates its faces.

Usage: occ_evaluate.py FILE PER_UNIT OUTPUT.json

Writes one JSON object to OUTPUT.json: "messages" (every warning or error gmsh logged while
reading, and every line OpenCASCADE printed that speaks of a warning, an error or a failure),
"output" (all that OpenCASCADE printed) and "faces", one per surface, each with its parameter "bounds" as the reader sees them,
"corner": the surface at the lower bounds, and "points": the surface at every (i/PER_UNIT,
j/PER_UNIT) inside the bounds (j outer, i inner); points are [u, v, x, y, z].
"""
import json
import math
import os
import sys
import tempfile

import gmsh


def main():
    path, per_unit, result = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    gmsh.initialize(readConfigFiles=False)
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.logger.start()
    try:
        gmsh.model.add("check")
        # OpenCASCADE's readers print to the process's standard output: catch it at the descriptor.
        sys.stdout.flush()
        saved = os.dup(1)
        with tempfile.TemporaryFile() as captured:
            os.dup2(captured.fileno(), 1)
            try:
                entities = gmsh.model.occ.importShapes(path, highestDimOnly=True)
                gmsh.model.occ.synchronize()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            captured.seek(0)
            output = captured.read().decode("utf-8", "replace")
        messages = [m for m in gmsh.logger.get() if m.lower().startswith(("warning", "error"))]
        messages += [line for line in output.splitlines() if any(w in line.lower() for w in ("warning", "error", "fail"))]
        faces = []
        for dim, tag in sorted(e for e in entities if e[0] == 2):
            low, high = gmsh.model.getParametrizationBounds(dim, tag)
            us = steps(low[0], high[0], per_unit)
            vs = steps(low[1], high[1], per_unit)
            parameters = [c for v in vs for u in us for c in (u, v)]
            values = gmsh.model.getValue(dim, tag, parameters)
            points = [[parameters[2 * k], parameters[2 * k + 1], *values[3 * k:3 * k + 3]] for k in range(len(parameters) // 2)]
            corner = gmsh.model.getValue(dim, tag, [low[0], low[1]])
            faces.append({"tag": tag, "bounds": [[low[0], high[0]], [low[1], high[1]]],
                          "corner": [low[0], low[1], *corner], "points": points})
        with open(result, "w") as out:
            json.dump({"messages": messages, "output": output, "faces": faces}, out)
    finally:
        gmsh.logger.stop()
        gmsh.finalize()


def steps(low, high, per_unit):
    """The multiples of 1/per_unit from low to high; the bounds of a face read back from its edges
    may be off by rounding, which the slack absorbs."""
    slack = 1e-9
    first, last = math.ceil(low * per_unit - slack), math.floor(high * per_unit + slack)
    return [k / per_unit for k in range(first, last + 1)]


if __name__ == "__main__":
    main()
