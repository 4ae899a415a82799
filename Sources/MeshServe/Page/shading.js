// Lighting of the live view, in JavaScript: the same formulas as the page's fragment shader
// (renderer.js) and the library's shading (`meshgeo render`), so that each can be checked
// against the others. Exposed as window.MeshShading and, bound to the current mesh, as
// window.meshgeo.shade.
//
// Two models, as mesh.json chooses them:
// - layer.light (BCMeshTransformView): intensity = (1 - k) + k·|n·l|, l the normalised direction,
//   k the diffuse factor; the normal taken through the layer transform; two-sided.
// - layer.lights with layer.material (Phong, lights fixed in screen space):
//   colour = content × (Σ ambient·I + Σ diffuse·I·max(0, n·l)) + Σ specular·I·max(0, r·v)^shininess,
//   I = colour × intensity × attenuation × spot factor, clamped per channel, alpha unchanged.
"use strict";
(function () {
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  // The unit vector along a, or null for a zero or non-finite vector.
  function unit(a) {
    const largest = Math.max(Math.abs(a[0]), Math.abs(a[1]), Math.abs(a[2]));
    if (!(largest > 0) || !isFinite(largest)) return null;
    const b = scale(a, 1 / largest);
    return scale(b, 1 / Math.sqrt(dot(b, b)));
  }
  function length(a) {
    const largest = Math.max(Math.abs(a[0]), Math.abs(a[1]), Math.abs(a[2]));
    if (!(largest > 0)) return 0;
    const b = scale(a, 1 / largest);
    return largest * Math.sqrt(dot(b, b));
  }

  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const defaults = { size: [1, 1], anchor: [0.5, 0.5], transform: identity };
  function layerOf(mesh) {
    const layer = (mesh && mesh.layer) || {};
    return {
      size: layer.size || defaults.size,
      anchor: layer.anchor || defaults.anchor,
      transform: layer.transform || defaults.transform,
      light: layer.light,
      lights: layer.lights,
      material: layer.material,
    };
  }
  const anchorInPoints = (layer) => [layer.anchor[0] * layer.size[0], layer.anchor[1] * layer.size[1], 0];

  // A points-space normal through the linear part of the transform (its cofactor matrix), as
  // Transform3D.transformNormal: the columns returned are the rows' cross products.
  function normalMatrix(m) {
    const a1 = [m[0], m[1], m[2]], a2 = [m[4], m[5], m[6]], a3 = [m[8], m[9], m[10]];
    const c1 = cross(a2, a3), c2 = cross(a3, a1), c3 = cross(a1, a2);
    const sign = dot(a1, c1) < 0 ? -1 : 1;
    return [c1, c2, c3].map((c) => scale(c, sign));
  }
  function screenNormal(layer, n) {
    const c = normalMatrix(layer.transform);
    const v = [0, 1, 2].map((k) => n[0] * c[0][k] + n[1] * c[1][k] + n[2] * c[2][k]);
    return unit(v) || [0, 0, 1];
  }
  // Where a points-space point is for lighting: the transform's affine part about the anchor.
  function litPosition(layer, p) {
    const m = layer.transform, a = anchorInPoints(layer);
    const q = sub(p, a);
    return [0, 1, 2].map((k) => q[0] * m[k] + q[1] * m[4 + k] + q[2] * m[8 + k] + m[12 + k] + a[k]);
  }
  // The eye in screen-space points, or null for a viewer at infinity along +z.
  function eyeOf(layer) {
    const m = layer.transform;
    const r1 = [m[0], m[1], m[2]], r2 = [m[4], m[5], m[6]], r3 = [m[8], m[9], m[10]];
    const c = [m[3], m[7], m[11]];
    if (c[0] === 0 && c[1] === 0 && c[2] === 0) return null;
    const c23 = cross(r2, r3), c31 = cross(r3, r1), c12 = cross(r1, r2);
    const det = dot(r1, c23);
    if (det === 0 || !isFinite(det)) return null;
    const g = [0, 1, 2].map((k) => (c[0] * c23[k] + c[1] * c31[k] + c[2] * c12[k]) / det);
    const h = m[15] - dot([m[12], m[13], m[14]], g);
    const distance = -h / g[2];
    if (!(distance > 0) || !isFinite(distance)) return null;
    const a = anchorInPoints(layer);
    return [a[0], a[1], distance];
  }

  const materialDefaults = { ambient: 1, diffuse: 1, specular: 0, shininess: 32 };
  // A light with its defaults filled in.
  function lightOf(light) {
    return {
      type: light.type,
      color: light.color || [1, 1, 1],
      intensity: light.intensity === undefined ? 1 : light.intensity,
      position: light.position || [0, 0, 0],
      direction: light.direction || [0, 0, 1],
      attenuation: light.attenuation || [1, 0, 0],
      innerAngle: light.innerAngle === undefined ? 0 : light.innerAngle,
      outerAngle: light.outerAngle === undefined ? 90 : light.outerAngle,
    };
  }
  function spotFactor(light, l) {
    const axis = unit(light.direction);
    if (!axis) return 0;
    const cosine = Math.min(1, Math.max(-1, -dot(axis, l)));
    const angle = (Math.acos(cosine) * 180) / Math.PI;
    if (angle <= light.innerAngle) return 1;
    if (angle >= light.outerAngle) return 0;
    const t = (light.outerAngle - angle) / (light.outerAngle - light.innerAngle);
    return t * t * (3 - 2 * t);
  }

  // The Phong factors at a lit position with a screen-space normal: {scale, highlight}.
  function phongReflectance(lights, material, eye, point, normal) {
    const v = eye ? unit(sub(eye, point)) || [0, 0, 1] : [0, 0, 1];
    let n = unit(normal) || v;
    if (dot(n, v) < 0) n = scale(n, -1);
    const out = { scale: [0, 0, 0], highlight: [0, 0, 0] };
    const add = (radiance, l) => {
      const cosine = dot(n, l);
      if (!(cosine > 0)) return;
      for (let k = 0; k < 3; k++) out.scale[k] += material.diffuse * cosine * radiance[k];
      if (!(material.specular > 0)) return;
      const r = sub(scale(n, 2 * cosine), l);
      const rv = dot(r, v);
      if (!(rv > 0)) return;
      const power = Math.pow(Math.min(1, rv), material.shininess);
      for (let k = 0; k < 3; k++) out.highlight[k] += material.specular * power * radiance[k];
    };
    for (const raw of lights) {
      const light = lightOf(raw);
      const radiance = scale(light.color, light.intensity);
      if (light.type === "ambient") {
        for (let k = 0; k < 3; k++) out.scale[k] += material.ambient * radiance[k];
      } else if (light.type === "directional") {
        const l = unit(light.direction);
        if (l) add(radiance, l);
      } else if (light.type === "point" || light.type === "spot") {
        const offset = sub(light.position, point);
        const l = unit(offset);
        if (!l) continue;
        const d = length(offset);
        const a = light.attenuation;
        const denominator = a[0] + a[1] * d + a[2] * d * d;
        let factor = isFinite(denominator) ? 1 / Math.max(denominator, 1e-12) : 0;
        if (light.type === "spot") factor *= spotFactor(light, l);
        if (factor > 0) add(scale(radiance, factor), l);
      }
    }
    return out;
  }

  // The lit colour of `content` (RGBA, 0…1, straight alpha) at a points-space point with a
  // points-space normal, on the layer of `mesh` (its light or its lights and material).
  function shade(mesh, content, pointInPoints, normalInPoints) {
    const layer = layerOf(mesh);
    const n = screenNormal(layer, normalInPoints);
    const clamp = (x) => (isNaN(x) ? 0 : Math.min(1, Math.max(0, x)));
    if (layer.lights) {
      const material = Object.assign({}, materialDefaults, layer.material || {});
      const r = phongReflectance(layer.lights, material, eyeOf(layer), litPosition(layer, pointInPoints), n);
      return [0, 1, 2].map((k) => clamp(content[k] * r.scale[k] + r.highlight[k])).concat([content[3]]);
    }
    const light = layer.light || {};
    const l = unit(light.direction || [0, 0, 1]) || [0, 0, 1];
    const k = light.diffuse === undefined ? 1 : light.diffuse;
    const intensity = 1 - k + k * Math.abs(dot(n, l));
    return [0, 1, 2].map((c) => clamp(content[c] * intensity)).concat([content[3]]);
  }

  window.MeshShading = {
    shade, phongReflectance, screenNormal, normalMatrix, litPosition, eyeOf, layerOf, lightOf, anchorInPoints, unit,
    materialDefaults, maximumLights: 16,
  };
})();
