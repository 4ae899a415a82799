#!/usr/bin/env python3
"""Prints the KHR_lights_punctual lights of a .glb as JSON, read with pygltflib (an independent
glTF reader), in meshgeo's screen frame (y down): for each light its type, colour, intensity,
position, the unit direction it shines along and its cone angles in radians; and the material's
emissive factor and KHR_materials_specular factor. Used by the tests.

Usage: python3 scripts/glb-lights.py file.glb
"""
import json
import math
import sys

from pygltflib import GLTF2


def rotate(q, v):
    """v rotated by the unit quaternion q = (x, y, z, w)."""
    x, y, z, w = q
    # v + 2w(u × v) + 2u × (u × v), u = (x, y, z)
    u = (x, y, z)

    def cross(a, b):
        return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])

    t = cross(u, v)
    t = (2 * t[0], 2 * t[1], 2 * t[2])
    s = cross(u, t)
    return (v[0] + w * t[0] + s[0], v[1] + w * t[1] + s[1], v[2] + w * t[2] + s[2])


def main():
    gltf = GLTF2().load(sys.argv[1])
    definitions = (gltf.extensions or {}).get("KHR_lights_punctual", {}).get("lights", [])
    lights = []
    scene_nodes = set(gltf.scenes[gltf.scene].nodes) if gltf.scenes else set()
    for index, node in enumerate(gltf.nodes):
        extension = (node.extensions or {}).get("KHR_lights_punctual")
        if extension is None:
            continue
        light = definitions[extension["light"]]
        rotation = node.rotation or [0, 0, 0, 1]
        travel = rotate(rotation, (0.0, 0.0, -1.0))
        length = math.sqrt(sum(c * c for c in travel))
        translation = node.translation or [0, 0, 0]
        entry = {
            "type": light["type"],
            "color": light.get("color", [1, 1, 1]),
            "intensity": light.get("intensity", 1),
            "inScene": index in scene_nodes,
            # Back to meshgeo's frame: glTF's y is up, the layer's y down.
            "position": [translation[0], -translation[1], translation[2]],
            "direction": [travel[0] / length, -travel[1] / length, travel[2] / length],
        }
        if light["type"] == "spot":
            spot = light.get("spot", {})
            entry["innerConeAngle"] = spot.get("innerConeAngle", 0)
            entry["outerConeAngle"] = spot.get("outerConeAngle", math.pi / 4)
        lights.append(entry)
    material = gltf.materials[0]
    specular = (material.extensions or {}).get("KHR_materials_specular", {})
    print(json.dumps({
        "extensionsUsed": gltf.extensionsUsed or [],
        "lights": lights,
        "emissiveFactor": material.emissiveFactor,
        "specularFactor": specular.get("specularFactor"),
        "roughnessFactor": material.pbrMetallicRoughness.roughnessFactor,
    }))


if __name__ == "__main__":
    main()
