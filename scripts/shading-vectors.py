#!/usr/bin/env python3
"""Writes Tests/Fixtures/shading-vectors.json: inputs and expected colours of the lights' shading
formula (Docs/rendering.md, "Lights"), computed here independently of the Swift code.

Every renderer of layer.lights (the Swift library, the live view's shader) is tested against
these vectors. Run from the repository root: python3 scripts/shading-vectors.py
"""
import json
import math
import random


def sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def dot(a, b):
    return sum(a[i] * b[i] for i in range(3))


def norm(a):
    length = math.sqrt(dot(a, a))
    return None if length == 0 else [c / length for c in a]


def smoothstep(t):
    return t * t * (3 - 2 * t)


def full(light):
    """The light with mesh.json's defaults filled in."""
    out = {"color": [1, 1, 1], "intensity": 1, "attenuation": [1, 0, 0], "innerAngle": 0, "direction": [0, 0, 1]}
    out.update(light)
    return out


def shade(lights, material, eye, p, n, content):
    v = [0.0, 0.0, 1.0] if eye is None else norm(sub(eye, p))
    n = norm(n) or v
    if dot(n, v) < 0:
        n = [-c for c in n]
    ambient_sum = [0.0] * 3
    diffuse_sum = [0.0] * 3
    specular_sum = [0.0] * 3
    for raw in lights:
        light = full(raw)
        radiance = [light["color"][k] * light["intensity"] for k in range(3)]
        kind = light["type"]
        if kind == "ambient":
            for k in range(3):
                ambient_sum[k] += material["ambient"] * radiance[k]
            continue
        if kind == "directional":
            l = norm(light["direction"])
            factor = 1.0
        else:
            to_light = sub(light["position"], p)
            l = norm(to_light)
            if l is None:
                continue
            dist = math.sqrt(dot(to_light, to_light))
            c, lin, q = light["attenuation"]
            factor = 1.0 / max(c + lin * dist + q * dist * dist, 1e-12)
            if kind == "spot":
                axis = norm(light["direction"])
                theta = math.degrees(math.acos(max(-1.0, min(1.0, -dot(axis, l)))))
                inner, outer = light["innerAngle"], light["outerAngle"]
                if theta <= inner:
                    spot = 1.0
                elif theta >= outer:
                    spot = 0.0
                else:
                    spot = smoothstep((outer - theta) / (outer - inner))
                factor *= spot
        cosine = dot(n, l)
        if cosine <= 0 or factor <= 0:
            continue
        r = [2 * cosine * n[k] - l[k] for k in range(3)]
        highlight = max(0.0, dot(r, v)) ** material["shininess"] if material["specular"] > 0 else 0.0
        for k in range(3):
            diffuse_sum[k] += material["diffuse"] * cosine * radiance[k] * factor
            specular_sum[k] += material["specular"] * highlight * radiance[k] * factor
    out = []
    for k in range(3):
        value = content[k] * (ambient_sum[k] + diffuse_sum[k]) + specular_sum[k]
        out.append(min(1.0, max(0.0, value)))
    return out + [content[3]]


def vector(name, lights, material, eye, p, n, content):
    full_material = {"ambient": 1, "diffuse": 1, "specular": 0, "shininess": 32}
    full_material.update(material)
    return {
        "name": name, "lights": lights, "material": full_material, "eye": eye, "point": p, "normal": n,
        "content": content, "expected": shade(lights, full_material, eye, p, n, content),
    }


def main():
    spot = {"type": "spot", "position": [0, 0, 100], "direction": [0, 0, -1], "innerAngle": 10, "outerAngle": 20}
    shiny = {"specular": 0.8, "shininess": 16}
    white = [1, 1, 1, 1]
    vectors = [
        vector("ambient only", [{"type": "ambient", "color": [1, 0.5, 0.25], "intensity": 0.4}], {}, None,
               [3, 4, 0], [0, 0, 1], [0.5, 0.8, 1, 0.7]),
        vector("directional head-on", [{"type": "directional", "direction": [0, 0, 1], "intensity": 0.8}], {}, None,
               [0, 0, 0], [0, 0, 1], [0.9, 0.6, 0.3, 1]),
        vector("directional at 60 degrees", [{"type": "directional", "direction": [0, math.sin(math.pi / 3), 0.5]}], {}, None,
               [0, 0, 0], [0, 0, 1], white),
        vector("back face flipped toward the viewer", [{"type": "directional", "direction": [0, 0, 1]}], {}, None,
               [0, 0, 0], [0, 0, -2], white),
        vector("point light with quadratic falloff", [{"type": "point", "position": [30, 40, 20], "attenuation": [1, 0.01, 0.001]}],
               {}, None, [0, 0, 0], [0, 0, 1], white),
        vector("point light above, eye at 500", [{"type": "point", "position": [10, 20, 50], "attenuation": [1, 0, 0.0002]}],
               shiny, [50, 50, 500], [12, 18, 0], [0, 0, 1], [0.2, 0.4, 0.6, 1]),
        vector("spot: on the axis", [spot], {}, None, [0, 0, 0], [0, 0, 1], white),
        vector("spot: inside the inner cone", [spot], {}, None, [100 * math.tan(math.radians(9)), 0, 0], [0, 0, 1], white),
        vector("spot: between the cones", [spot], {}, None, [100 * math.tan(math.radians(15)), 0, 0], [0, 0, 1], white),
        vector("spot: just inside the outer cone", [spot], {}, None, [100 * math.tan(math.radians(19.5)), 0, 0], [0, 0, 1], white),
        vector("spot: outside the outer cone", [spot], {}, None, [0, 100 * math.tan(math.radians(21)), 0], [0, 0, 1], white),
        vector("spot: hard edge (inner = outer)", [dict(spot, innerAngle=20)], {}, None,
               [100 * math.tan(math.radians(19)), 0, 0], [0, 0, 1], white),
        vector("specular mirror direction", [{"type": "directional", "direction": [0, 0, 1]}], shiny, None,
               [0, 0, 0], [0, 0, 1], [0.1, 0.1, 0.1, 1]),
        vector("specular off the mirror direction", [{"type": "directional", "direction": [0.3, 0, 1]}], shiny, None,
               [0, 0, 0], [0, 0, 1], [0.1, 0.1, 0.1, 1]),
        vector("light behind the surface: no diffuse, no highlight",
               [{"type": "directional", "direction": [-0.9, 0, -0.1]}, {"type": "ambient", "intensity": 0.1}],
               shiny, [80, 0, 80], [0, 0, 0], [0, 0, 1], [0.5, 0.5, 0.5, 1]),
        vector("clamped to 1", [{"type": "directional", "direction": [0, 0, 1], "intensity": 3}], shiny, None,
               [0, 0, 0], [0, 0, 1], [0.9, 0.2, 0.5, 0.25]),
        vector("a point at the light's position gets nothing from it",
               [{"type": "point", "position": [5, 5, 0]}, {"type": "ambient", "intensity": 0.25}], {}, None,
               [5, 5, 0], [0, 0, 1], white),
        vector("no lights: black", [], {}, None, [0, 0, 0], [0, 0, 1], [1, 1, 1, 0.5]),
    ]
    rng = random.Random(25)
    for i in range(40):
        lights = []
        for _ in range(rng.randint(1, 4)):
            kind = rng.choice(["ambient", "directional", "point", "spot"])
            light = {"type": kind, "color": [round(rng.uniform(0, 1.2), 3) for _ in range(3)],
                     "intensity": round(rng.uniform(0, 1.5), 3)}
            if kind in ("point", "spot"):
                light["position"] = [round(rng.uniform(-100, 100), 2), round(rng.uniform(-100, 100), 2), round(rng.uniform(1, 200), 2)]
                light["attenuation"] = [round(rng.uniform(0.2, 1), 3), round(rng.uniform(0, 0.01), 5), round(rng.uniform(0, 1e-4), 7)]
            if kind == "directional":
                light["direction"] = [round(rng.uniform(-1, 1), 3), round(rng.uniform(-1, 1), 3), round(rng.uniform(0.1, 1), 3)]
            if kind == "spot":
                # Aimed near the origin so that some points fall within the cone.
                target = [rng.uniform(-30, 30), rng.uniform(-30, 30), 0]
                light["direction"] = [round(target[k] - light["position"][k], 3) for k in range(3)]
                outer = round(rng.uniform(5, 60), 2)
                light["innerAngle"] = round(rng.uniform(0, outer), 2)
                light["outerAngle"] = outer
            lights.append(light)
        material = {"ambient": round(rng.uniform(0, 1), 3), "diffuse": round(rng.uniform(0, 1), 3),
                    "specular": round(rng.uniform(0, 1), 3), "shininess": round(rng.uniform(1, 64), 2)}
        eye = None if rng.random() < 0.4 else [round(rng.uniform(-50, 50), 2), round(rng.uniform(-50, 50), 2), round(rng.uniform(200, 800), 2)]
        p = [round(rng.uniform(-40, 40), 2), round(rng.uniform(-40, 40), 2), round(rng.uniform(-20, 20), 2)]
        n = [round(rng.uniform(-1, 1), 3), round(rng.uniform(-1, 1), 3), round(rng.uniform(-1, 1), 3)]
        content = [round(rng.uniform(0, 1), 3) for _ in range(3)] + [round(rng.uniform(0.1, 1), 3)]
        vectors.append(vector("random %d" % i, lights, material, eye, p, n, content))
    document = {
        "about": "Expected colours of the layer.lights shading formula (Docs/rendering.md), from scripts/shading-vectors.py. "
                 "point, normal, eye and light positions are screen-space points; eye null is a viewer at infinity along +z; "
                 "content and expected are straight-alpha RGBA in 0...1.",
        "tolerance": 1e-9,
        "vectors": vectors,
    }
    with open("Tests/Fixtures/shading-vectors.json", "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
