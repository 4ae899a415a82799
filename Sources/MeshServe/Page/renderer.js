// A small WebGL2 renderer for the live view: the tessellated surface (points space, as the server
// sends it) carried through the layer transform in the vertex shader exactly as Core Animation
// applies it (about the anchor, row vectors, then the perspective divide), textured with the
// layer's content and lit per pixel by the model of shading.js.
"use strict";
(function () {
  const MAX_LIGHTS = 16;
  const vertexSource = `#version 300 es
    in vec3 aPosition;
    in vec3 aNormal;
    in vec2 aFrom;
    uniform mat4 uTransform;   // the layer transform, CATransform3D rows as this matrix's columns
    uniform vec3 uAnchor;      // the anchor in points
    uniform vec4 uView;        // clip.x = uView.x·q.x + uView.z·q.w, clip.y = uView.y·q.y + uView.w·q.w
    uniform float uDepthScale; // clip.z = −uDepthScale·q.z: larger screen z is nearer
    uniform mat3 uNormalMatrix;
    out vec2 vFrom;
    out vec3 vNormal;
    out vec3 vLit;
    void main() {
      vec4 q = uTransform * vec4(aPosition - uAnchor, 1.0);
      vFrom = aFrom;
      vNormal = uNormalMatrix * aNormal;
      vLit = q.xyz + uAnchor;
      gl_Position = vec4(uView.x * q.x + uView.z * q.w, uView.y * q.y + uView.w * q.w, -uDepthScale * q.z, q.w);
    }`;
  const fragmentSource = `#version 300 es
    precision highp float;
    in vec2 vFrom;
    in vec3 vNormal;
    in vec3 vLit;
    uniform sampler2D uContent;
    uniform float uOpacity;
    uniform int uWire;          // 1: draw the wireframe colour
    uniform int uModel;         // 0: layer.light (intensity), 1: layer.lights (Phong)
    uniform vec3 uLightDirection;
    uniform float uDiffuse;
    uniform int uLightCount;
    uniform int uLightKind[${MAX_LIGHTS}];   // 0 ambient, 1 directional, 2 point, 3 spot
    uniform vec3 uLightRadiance[${MAX_LIGHTS}];
    uniform vec3 uLightPosition[${MAX_LIGHTS}];
    uniform vec3 uLightDirectionN[${MAX_LIGHTS}];
    uniform vec3 uLightAttenuation[${MAX_LIGHTS}];
    uniform vec2 uLightCone[${MAX_LIGHTS}];  // inner, outer angle in degrees
    uniform vec4 uMaterial;                 // ambient, diffuse, specular, shininess
    uniform int uHasEye;
    uniform vec3 uEye;
    out vec4 outColor;

    vec3 safeUnit(vec3 a, vec3 fallback) { float l = length(a); return l > 0.0 ? a / l : fallback; }

    void main() {
      if (uWire == 1) { outColor = vec4(0.08, 0.1, 0.16, 0.85); return; }
      vec4 content = texture(uContent, vFrom);
      vec3 rgb;
      if (uModel == 0) {
        vec3 n = safeUnit(vNormal, vec3(0.0, 0.0, 1.0));
        float intensity = 1.0 - uDiffuse + uDiffuse * abs(dot(n, uLightDirection));
        rgb = clamp(content.rgb * intensity, 0.0, 1.0);
      } else {
        vec3 v = uHasEye == 1 ? safeUnit(uEye - vLit, vec3(0.0, 0.0, 1.0)) : vec3(0.0, 0.0, 1.0);
        vec3 n = safeUnit(vNormal, v);
        if (dot(n, v) < 0.0) n = -n;
        vec3 scale = vec3(0.0), highlight = vec3(0.0);
        for (int i = 0; i < ${MAX_LIGHTS}; i++) {
          if (i >= uLightCount) break;
          vec3 radiance = uLightRadiance[i];
          int kind = uLightKind[i];
          if (kind == 0) { scale += uMaterial.x * radiance; continue; }
          vec3 l;
          if (kind == 1) {
            l = uLightDirectionN[i];
          } else {
            vec3 offset = uLightPosition[i] - vLit;
            float d = length(offset);
            if (d <= 0.0) continue;
            l = offset / d;
            vec3 a = uLightAttenuation[i];
            float factor = 1.0 / max(a.x + a.y * d + a.z * d * d, 1e-12);
            if (kind == 3) {
              float angle = degrees(acos(clamp(-dot(uLightDirectionN[i], l), -1.0, 1.0)));
              vec2 cone = uLightCone[i];
              float t = angle <= cone.x ? 1.0 : (angle >= cone.y ? 0.0 : (cone.y - angle) / (cone.y - cone.x));
              factor *= t * t * (3.0 - 2.0 * t);
            }
            if (factor <= 0.0) continue;
            radiance *= factor;
          }
          float cosine = dot(n, l);
          if (cosine <= 0.0) continue;
          scale += uMaterial.y * cosine * radiance;
          if (uMaterial.z <= 0.0) continue;
          float rv = dot(2.0 * cosine * n - l, v);
          if (rv <= 0.0) continue;
          highlight += uMaterial.z * pow(min(1.0, rv), uMaterial.w) * radiance;
        }
        rgb = clamp(content.rgb * scale + highlight, 0.0, 1.0);
      }
      float alpha = content.a * uOpacity;
      outColor = vec4(rgb * alpha, alpha);
    }`;

  function compile(gl, type, source) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
    return shader;
  }

  class SurfaceRenderer {
    constructor(canvas) {
      const gl = canvas.getContext("webgl2", { antialias: true, premultipliedAlpha: true, preserveDrawingBuffer: true });
      if (!gl) throw new Error("WebGL2 is not available in this browser");
      this.gl = gl;
      this.canvas = canvas;
      const program = gl.createProgram();
      gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, vertexSource));
      gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, fragmentSource));
      gl.linkProgram(program);
      if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
      this.program = program;
      this.uniforms = {};
      const count = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS);
      for (let i = 0; i < count; i++) {
        const name = gl.getActiveUniform(program, i).name.replace(/\[0\]$/, "");
        this.uniforms[name] = gl.getUniformLocation(program, name);
      }
      this.vao = gl.createVertexArray();
      this.buffers = { position: gl.createBuffer(), normal: gl.createBuffer(), from: gl.createBuffer(), index: gl.createBuffer(), lines: gl.createBuffer() };
      gl.bindVertexArray(this.vao);
      const attribute = (name, buffer, size) => {
        const location = gl.getAttribLocation(program, name);
        if (location < 0) return;
        gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
        gl.enableVertexAttribArray(location);
        gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
      };
      attribute("aPosition", this.buffers.position, 3);
      attribute("aNormal", this.buffers.normal, 3);
      attribute("aFrom", this.buffers.from, 2);
      gl.bindVertexArray(null);
      this.uploaded = {};
      this.indexCount = 0;
      this.lineCount = 0;
      this.lineIndices = null;
      this.texture = gl.createTexture();
    }

    // The tessellation as the server's binary answer: two UInt32 counts, then Float32 positions,
    // normals, from, and UInt32 indices.
    setMesh(buffer) {
      const gl = this.gl;
      const header = new Uint32Array(buffer, 0, 2);
      const vertices = header[0], triangles = header[1];
      let offset = 8;
      const take = (Type, n) => { const a = new Type(buffer, offset, n); offset += n * 4; return a; };
      const positions = take(Float32Array, vertices * 3);
      const normals = take(Float32Array, vertices * 3);
      const from = take(Float32Array, vertices * 2);
      const indices = take(Uint32Array, triangles * 3);
      // Kept whole: a delta answer is written over it (applyDelta).
      this.answer = new Uint8Array(buffer, 0, offset);
      this.regions = { position: [8, positions], normal: [8 + vertices * 12, normals], from: [8 + vertices * 24, from], index: [8 + vertices * 32, indices] };
      let uploadedBytes = this.upload("position", gl.ARRAY_BUFFER, positions);
      uploadedBytes += this.upload("normal", gl.ARRAY_BUFFER, normals);
      uploadedBytes += this.upload("from", gl.ARRAY_BUFFER, from);
      gl.bindVertexArray(this.vao); // the element buffer binding belongs to the vertex array
      uploadedBytes += this.upload("index", gl.ELEMENT_ARRAY_BUFFER, indices);
      gl.bindVertexArray(null);
      this.indexCount = triangles * 3;
      this.indices = indices;
      this.lineIndices = null;
      return { vertices, triangles, uploadedBytes };
    }

    // A delta answer (the server's reply to `since`): three UInt32 (vertices, triangles, spans),
    // then each span's byte offset and length in the full answer and its bytes. The spans are
    // written over the answer held from the previous frame, which makes it the new full answer,
    // and each buffer is sent the one range from its first to its last changed byte. Returns
    // null when the counts are not those of the held answer (the caller then asks in full).
    applyDelta(buffer) {
      const gl = this.gl, words = new Uint32Array(buffer, 0, 3), bytes = new Uint8Array(buffer);
      const held = this.answer;
      if (!held || !this.regions) return null;
      const heldCounts = new Uint32Array(held.buffer, held.byteOffset, 2);
      if (words[0] !== heldCounts[0] || words[1] !== heldCounts[1]) return null;
      const view = new DataView(buffer);
      const ranges = {};
      let at = 12;
      for (let k = 0; k < words[2]; k++) {
        const offset = view.getUint32(at, true), length = view.getUint32(at + 4, true);
        held.set(bytes.subarray(at + 8, at + 8 + length), offset);
        at += 8 + length;
        for (const name in this.regions) {
          const [start, data] = this.regions[name], end = start + data.byteLength;
          const lo = Math.max(offset, start), hi = Math.min(offset + length, end);
          if (lo >= hi) continue;
          const r = ranges[name] || (ranges[name] = [lo, hi]);
          r[0] = Math.min(r[0], lo); r[1] = Math.max(r[1], hi);
        }
      }
      let uploadedBytes = 0;
      gl.bindVertexArray(this.vao);
      for (const name in ranges) {
        const [start, data] = this.regions[name], [lo, hi] = ranges[name];
        const target = name === "index" ? gl.ELEMENT_ARRAY_BUFFER : gl.ARRAY_BUFFER;
        gl.bindBuffer(target, this.buffers[name]);
        gl.bufferSubData(target, lo - start, data, (lo - start) / 4, (hi - lo) / 4);
        uploadedBytes += hi - lo;
        if (name === "index") this.lineIndices = null;
      }
      gl.bindVertexArray(null);
      return { vertices: words[0], triangles: words[1], uploadedBytes };
    }

    // Puts `data` in the buffer `name`: in full when its length changed, otherwise only the span
    // from the first to the last 32-bit word that differs from the previous upload. A moved vertex
    // changes the points near it only, and `from` (and without a sort, mostly the indices) not at
    // all, so an edit sends a small part of the answer to the GPU. Words are compared as bits, so
    // the buffer ends up equal to `data` exactly.
    upload(name, target, data) {
      const gl = this.gl, previous = this.uploaded[name];
      gl.bindBuffer(target, this.buffers[name]);
      let sent = 0;
      if (!previous || previous.length !== data.length) {
        gl.bufferData(target, data, gl.DYNAMIC_DRAW);
        sent = data.byteLength;
      } else {
        const a = new Uint32Array(previous.buffer, previous.byteOffset, previous.length);
        const b = new Uint32Array(data.buffer, data.byteOffset, data.length);
        const n = b.length;
        let first = 0;
        while (first < n && a[first] === b[first]) first++;
        if (first < n) {
          let last = n - 1;
          while (a[last] === b[last]) last--;
          gl.bufferSubData(target, first * 4, data, first, last - first + 1);
          sent = (last - first + 1) * 4;
        }
      }
      this.uploaded[name] = data;
      return sent;
    }

    // The wireframe's lines, made from the triangles when first asked for.
    ensureLines() {
      if (this.lineIndices || !this.indices) return;
      const t = this.indices, lines = new Uint32Array(t.length * 2);
      for (let i = 0; i < t.length; i += 3) {
        const o = i * 2;
        lines[o] = t[i]; lines[o + 1] = t[i + 1];
        lines[o + 2] = t[i + 1]; lines[o + 3] = t[i + 2];
        lines[o + 4] = t[i + 2]; lines[o + 5] = t[i];
      }
      const gl = this.gl;
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.buffers.lines);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, lines, gl.DYNAMIC_DRAW);
      this.lineIndices = lines;
    }

    setContent(source) {
      const gl = this.gl;
      gl.bindTexture(gl.TEXTURE_2D, this.texture);
      gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
      gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, source);
      gl.generateMipmap(gl.TEXTURE_2D);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    }

    // Draws with `scene`: {layer (shading.js layerOf), view {scale, x, y}, opacity, wireframe, depthScale}.
    draw(scene) {
      const gl = this.gl, u = this.uniforms, S = window.MeshShading;
      const width = this.canvas.width, height = this.canvas.height;
      gl.viewport(0, 0, width, height);
      gl.clearColor(0, 0, 0, 0);
      gl.depthMask(true); // a translucent frame leaves it off, and clear honours it
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      if (!this.indexCount) return;
      gl.useProgram(this.program);
      const layer = scene.layer, anchor = S.anchorInPoints(layer), view = scene.view;
      gl.uniformMatrix4fv(u.uTransform, false, new Float32Array(layer.transform));
      gl.uniform3fv(u.uAnchor, anchor);
      // Screen point s = q.xy / q.w + anchor; canvas pixel = view.x + view.scale·s.x (y down).
      gl.uniform4f(
        u.uView, (2 * view.scale) / width, (-2 * view.scale) / height,
        (2 * (view.x + view.scale * anchor[0])) / width - 1, 1 - (2 * (view.y + view.scale * anchor[1])) / height);
      gl.uniform1f(u.uDepthScale, scene.depthScale);
      gl.uniformMatrix3fv(u.uNormalMatrix, false, new Float32Array(S.normalMatrix(layer.transform).flat()));
      gl.uniform1f(u.uOpacity, scene.opacity);
      this.setLighting(layer);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, this.texture);
      gl.uniform1i(u.uContent, 0);
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
      // Opaque: the depth buffer decides. Translucent: the server's draw order does (painter's).
      const opaque = scene.opacity >= 1;
      if (opaque) { gl.enable(gl.DEPTH_TEST); gl.depthFunc(gl.LEQUAL); } else { gl.disable(gl.DEPTH_TEST); }
      gl.depthMask(opaque);
      gl.bindVertexArray(this.vao);
      gl.uniform1i(u.uWire, 0);
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.buffers.index);
      gl.drawElements(gl.TRIANGLES, this.indexCount, gl.UNSIGNED_INT, 0);
      if (scene.wireframe) {
        this.ensureLines();
        gl.uniform1i(u.uWire, 1);
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.buffers.lines);
        gl.drawElements(gl.LINES, this.lineIndices.length, gl.UNSIGNED_INT, 0);
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.buffers.index);
      }
      gl.bindVertexArray(null);
    }

    setLighting(layer) {
      const gl = this.gl, u = this.uniforms, S = window.MeshShading;
      if (!layer.lights) {
        const light = layer.light || {};
        gl.uniform1i(u.uModel, 0);
        gl.uniform3fv(u.uLightDirection, S.unit(light.direction || [0, 0, 1]) || [0, 0, 1]);
        gl.uniform1f(u.uDiffuse, light.diffuse === undefined ? 1 : light.diffuse);
        return;
      }
      const lights = layer.lights.slice(0, MAX_LIGHTS).map(S.lightOf);
      const kinds = { ambient: 0, directional: 1, point: 2, spot: 3 };
      const flat = (f) => new Float32Array(lights.flatMap(f).concat(new Array((MAX_LIGHTS - lights.length) * 3).fill(0)));
      gl.uniform1i(u.uModel, 1);
      gl.uniform1i(u.uLightCount, lights.length);
      gl.uniform1iv(u.uLightKind, new Int32Array(lights.map((l) => (l.type in kinds ? kinds[l.type] : 0)).concat(new Array(MAX_LIGHTS - lights.length).fill(0))));
      gl.uniform3fv(u.uLightRadiance, flat((l) => l.color.map((c) => c * l.intensity)));
      gl.uniform3fv(u.uLightPosition, flat((l) => l.position));
      gl.uniform3fv(u.uLightDirectionN, flat((l) => S.unit(l.direction) || [0, 0, 0]));
      gl.uniform3fv(u.uLightAttenuation, flat((l) => l.attenuation));
      gl.uniform2fv(u.uLightCone, new Float32Array(lights.flatMap((l) => [l.innerAngle, l.outerAngle]).concat(new Array((MAX_LIGHTS - lights.length) * 2).fill(0))));
      const m = Object.assign({}, S.materialDefaults, layer.material || {});
      gl.uniform4f(u.uMaterial, m.ambient, m.diffuse, m.specular, m.shininess);
      const eye = S.eyeOf(layer);
      gl.uniform1i(u.uHasEye, eye ? 1 : 0);
      gl.uniform3fv(u.uEye, eye || [0, 0, 0]);
    }
  }
  window.SurfaceRenderer = SurfaceRenderer;
})();
