// The live view: the page's state, its controls, the server round trips and window.meshgeo.
"use strict";
(function () {
  const S = window.MeshShading;
  const $ = (id) => document.getElementById(id);
  const surface = $("surface"), overlay = $("overlay"), stage = $("stage");
  const renderer = new window.SurfaceRenderer(surface);
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

  // Tuning: the layer takes this share of the stage's shorter fit (the rest is margin for bent
  // and turned surfaces); the page's first steps keep the triangles under this many.
  const LAYER_SHARE = 1 / 1.5;
  const FIRST_STEPS_TRIANGLES = 400000;
  const HANDLE_PICK_PIXELS = 10;

  const state = {
    mesh: null,            // the editable mesh (mesh.json object)
    baseTransform: identity,
    second: "identity",    // "identity", or a mesh object of the same topology
    options: {
      steps: "3", diagonal: "shortest", sort: "exact", opacity: 1, rotateX: 0, rotateY: 0, perspective: 0,
      wireframe: false, controlMesh: true, hitMode: false, fraction: 0, light: null,
    },
    stats: { triangles: 0, vertices: 0, serverMs: 0, clientMs: 0, roundTripMs: 0, uploadedBytes: 0, frames: 0, phases: {}, serverStages: {} },
    hitMark: null,
    view: { scale: 1, x: 0, y: 0, width: 1, height: 1 },
    lastError: null,
  };

  // ---- Geometry of the displayed mesh -------------------------------------------------------

  const clone = (x) => JSON.parse(JSON.stringify(x));
  function multiply(a, b) {
    const c = new Array(16).fill(0);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) c[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j];
    return c;
  }
  function rotation(axis, degrees) {
    const r = (degrees * Math.PI) / 180, c = Math.cos(r), s = Math.sin(r);
    // CATransform3DMakeRotation about x or y, row-vector layout.
    return axis === "x" ? [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1] : [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1];
  }
  function sizeOf(mesh) { return (mesh.layer && mesh.layer.size) || [1, 1]; }
  function depthScaleOf(mesh) {
    const [w, h] = sizeOf(mesh);
    switch (mesh.depthNormalization || "none") {
      case "width": return w;
      case "height": return h;
      case "min": return Math.min(w, h);
      case "max": return Math.max(w, h);
      case "average": return (w + h) / 2;
      default: return 1;
    }
  }
  // The controls' transform: turned about x then y, then the mesh's own, then the perspective.
  function transformOf(mesh) {
    const o = state.options, [w, h] = sizeOf(mesh);
    let m = multiply(multiply(rotation("x", o.rotateX), rotation("y", o.rotateY)), state.baseTransform);
    if (o.perspective > 0) {
      const p = identity.slice();
      p[11] = -o.perspective / (2 * Math.max(w, h));
      m = multiply(m, p);
    }
    return m;
  }
  function compatible(a, b) {
    if (a.vertices.length !== b.vertices.length) return `the second mesh has ${b.vertices.length} vertices, not ${a.vertices.length}`;
    if (a.faces.length !== b.faces.length) return `the second mesh has ${b.faces.length} faces, not ${a.faces.length}`;
    for (let i = 0; i < a.faces.length; i++) {
      if (a.faces[i].indices.join() !== b.faces[i].indices.join()) return `faces[${i}] has other indices in the second mesh`;
    }
    if ((a.depthNormalization || "none") !== (b.depthNormalization || "none")) return "the depth normalizations differ";
    return null;
  }
  function secondMesh() {
    if (state.second !== "identity") return state.second;
    const b = clone(state.mesh);
    for (const v of b.vertices) v.to = [v.from[0], v.from[1], 0];
    return b;
  }
  // The mesh on screen: the edited one, blended toward the second by the fraction, with the
  // controls' transform and light.
  // It shares the edited mesh's arrays (only read, then sent), so an edit copies nothing.
  function displayed() {
    const a = state.mesh, t = state.options.fraction;
    const m = Object.assign({}, a);
    if (t > 0) {
      const b = secondMesh();
      const lerp = (x, y) => x.map((v, k) => v + (y[k] - v) * t);
      m.vertices = a.vertices.map((v, i) => ({ from: lerp(v.from, b.vertices[i].from), to: lerp(v.to, b.vertices[i].to) }));
      m.faces = a.faces.map((f, i) => {
        const wa = f.w || [1, 1, 1, 1], wb = b.faces[i].w || [1, 1, 1, 1];
        const face = { indices: f.indices };
        if (f.w || b.faces[i].w) face.w = lerp(wa, wb);
        return face;
      });
    }
    m.layer = Object.assign({}, a.layer || {});
    m.layer.transform = transformOf(a);
    const light = state.options.light;
    if (light && !m.layer.lights) {
      const az = (light.azimuth * Math.PI) / 180, el = (light.elevation * Math.PI) / 180;
      m.layer.light = { direction: [Math.cos(el) * Math.sin(az), -Math.cos(el) * Math.cos(az), Math.sin(el)], diffuse: light.diffuse };
    }
    return m;
  }
  // A points-space point through the transform: {x, y} on the screen (points) and w.
  function project(layer, p) {
    const m = layer.transform, a = S.anchorInPoints(layer);
    const v = [p[0] - a[0], p[1] - a[1], p[2] - a[2], 1];
    const q = [0, 1, 2, 3].map((j) => v[0] * m[j] + v[1] * m[4 + j] + v[2] * m[8 + j] + v[3] * m[12 + j]);
    return { x: q[0] / q[3] + a[0], y: q[1] / q[3] + a[1], w: q[3] };
  }
  // The points-space (x, y) at depth z that projects to the screen point (sx, sy), or null.
  function unproject(layer, sx, sy, z) {
    const m = layer.transform, a = S.anchorInPoints(layer);
    const X = sx - a[0], Y = sy - a[1];
    const a11 = m[0] - X * m[3], a12 = m[4] - X * m[7], b1 = -(z * m[8] + m[12] - X * (z * m[11] + m[15]));
    const a21 = m[1] - Y * m[3], a22 = m[5] - Y * m[7], b2 = -(z * m[9] + m[13] - Y * (z * m[11] + m[15]));
    const det = a11 * a22 - a12 * a21;
    if (!(Math.abs(det) > 1e-12)) return null;
    return [(b1 * a22 - a12 * b2) / det + a[0], (a11 * b2 - a21 * b1) / det + a[1]];
  }

  // ---- Server round trips -------------------------------------------------------------------

  // lastTag names the binary answer the renderer holds: sent as `since`, the server answers with
  // only the bytes that changed since then. `sent` is the mesh the server keeps under its
  // `Mesh-Tag`, as flat numbers: the next request sends only what differs from it (`base` and
  // `edits`), or the whole mesh when it differs in more than vertices, weights and the layer.
  let inflight = false, dirty = false, waiters = [], lastOptions = null, lastTag = null, sent = null;
  function requestFrame() {
    dirty = true;
    const promise = new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    pump();
    return promise;
  }
  function effectiveSort() { return state.options.opacity < 1 ? state.options.sort : "none"; }
  function tessellationOptions() {
    const o = state.options;
    return { steps: o.steps === "auto" ? "auto" : Number(o.steps), diagonal: o.diagonal, space: "points", sort: effectiveSort(), format: "binary" };
  }
  function weightsOf(face) { return face.w || [1, 1, 1, 1]; }
  function snapshot(mesh, tag) {
    if (!tag) return null;
    const n = mesh.vertices.length, f = mesh.faces.length;
    const values = new Float64Array(5 * n), weights = new Float64Array(4 * f), indices = new Float64Array(4 * f);
    mesh.vertices.forEach((v, i) => { values.set(v.from.slice(0, 2), 5 * i); values.set(v.to.slice(0, 3), 5 * i + 2); });
    mesh.faces.forEach((face, i) => { indices.set(face.indices.slice(0, 4), 4 * i); weights.set(weightsOf(face).slice(0, 4), 4 * i); });
    const { vertices, faces, layer, ...rest } = mesh;
    return { tag, n, f, values, weights, indices, layer: JSON.stringify(layer), rest: JSON.stringify(rest) };
  }
  // The changes from the kept mesh to `mesh`: {edits, layer (when it changed)}, or null when the
  // whole mesh must be sent (no kept mesh, other faces or keys, or most vertices moved).
  function changesFrom(mesh) {
    if (!sent || mesh.vertices.length !== sent.n || mesh.faces.length !== sent.f) return null;
    const { vertices, faces, layer, ...rest } = mesh;
    if (JSON.stringify(rest) !== sent.rest) return null;
    const edits = [], s = sent.values;
    for (let i = 0; i < sent.n; i++) {
      const v = vertices[i], o = 5 * i;
      if (v.from.length !== 2 || v.to.length !== 3) return null;
      const from = v.from[0] !== s[o] || v.from[1] !== s[o + 1];
      const to = v.to[0] !== s[o + 2] || v.to[1] !== s[o + 3] || v.to[2] !== s[o + 4];
      if (from || to) {
        const edit = { vertex: i };
        if (to) edit.to = v.to;
        if (from) edit.from = v.from;
        edits.push(edit);
      }
    }
    for (let i = 0; i < sent.f; i++) {
      const face = faces[i], w = weightsOf(face), o = 4 * i;
      if (face.indices.length !== 4 || w.length !== 4) return null;
      for (let k = 0; k < 4; k++) if (face.indices[k] !== sent.indices[o + k]) return null;
      if (w[0] !== sent.weights[o] || w[1] !== sent.weights[o + 1] || w[2] !== sent.weights[o + 2] || w[3] !== sent.weights[o + 3]) {
        edits.push({ face: i, w });
      }
    }
    // Past a quarter of the mesh, the whole mesh is about as short and read as fast.
    if (4 * edits.length > sent.n + sent.f) return null;
    const changed = JSON.stringify(layer) !== sent.layer;
    return { edits, layer: changed ? layer : undefined };
  }
  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  }
  // Each frame's time, split where the page can see it: `prepare` (the mesh and the request body),
  // `request` (until the answer's headers: the server's time plus loopback), `transfer` (the
  // answer's bytes), `upload` (into WebGL buffers), `draw` (issuing the draw and the overlay) and
  // `present` (until the next animation frame: the GPU, or SwiftShader on the CPU, drawing it).
  function lap(phases, name, since) { const now = performance.now(); phases[name] = now - since; return now; }
  async function pump() {
    if (inflight || !dirty || !state.mesh) return;
    dirty = false;
    inflight = true;
    const batch = waiters;
    waiters = [];
    const started = performance.now();
    const phases = { prepare: 0, request: 0, transfer: 0, upload: 0, draw: 0, present: 0 };
    try {
      const mesh = displayed();
      const options = tessellationOptions(), optionsText = JSON.stringify(options);
      const changes = changesFrom(mesh);
      let t = lap(phases, "prepare", started);
      if (changes && changes.edits.length === 0 && !changes.layer && optionsText === lastOptions) {
        state.stats.serverMs = 0;
        state.stats.serverStages = {};
      } else {
        const since = lastTag ? { since: lastTag } : {};
        const whole = () => JSON.stringify(Object.assign({ mesh }, options, since));
        lastTag = null;
        lastOptions = null;
        let response, sentAs = "mesh";
        if (changes) {
          sentAs = "edits";
          const edit = Object.assign({ base: sent.tag, edits: changes.edits }, changes.layer ? { layer: changes.layer } : {}, options, since);
          response = await post("/api/tessellate", JSON.stringify(edit));
          // 409: the server no longer keeps that mesh (restarted, or many meshes since): send it whole.
          if (response.status === 409) { sent = null; sentAs = "mesh"; response = await post("/api/tessellate", whole()); }
        } else {
          response = await post("/api/tessellate", whole());
        }
        if (!response.ok) throw await errorOf(response);
        t = lap(phases, "request", t);
        const server = {};
        for (const m of (response.headers.get("Server-Timing") || "").matchAll(/([A-Za-z]+);dur=([0-9.]+)/g)) server[m[1]] = Number(m[2]);
        state.stats.serverMs = server.compute || 0;
        state.stats.serverStages = server;
        const answer = await response.arrayBuffer();
        t = lap(phases, "transfer", t);
        let counts = response.headers.get("Mesh-Answer") === "delta" ? renderer.applyDelta(answer) : renderer.setMesh(answer);
        let meshTag = response.headers.get("Mesh-Tag");
        if (!counts) {
          // The held answer was not the one the delta was made for: ask for the whole answer.
          const again = await post("/api/tessellate", JSON.stringify(Object.assign({ mesh }, options)));
          if (!again.ok) throw await errorOf(again);
          counts = renderer.setMesh(await again.arrayBuffer());
          lastTag = again.headers.get("Mesh-Version");
          meshTag = again.headers.get("Mesh-Tag");
          sentAs = "mesh";
        } else {
          lastTag = response.headers.get("Mesh-Version");
        }
        if (sentAs === "edits" && meshTag) {
          // The kept mesh is the one sent before with these edits: update the snapshot in place.
          for (const edit of changes.edits) {
            if (edit.vertex !== undefined) {
              if (edit.from) sent.values.set(edit.from, 5 * edit.vertex);
              if (edit.to) sent.values.set(edit.to, 5 * edit.vertex + 2);
            } else {
              sent.weights.set(edit.w, 4 * edit.face);
            }
          }
          if (changes.layer) sent.layer = JSON.stringify(changes.layer);
          sent.tag = meshTag;
        } else {
          sent = snapshot(mesh, meshTag);
        }
        t = lap(phases, "upload", t);
        state.stats.triangles = counts.triangles;
        state.stats.vertices = counts.vertices;
        state.stats.uploadedBytes = counts.uploadedBytes;
        state.stats.sentAs = sentAs;
        lastOptions = optionsText;
      }
      draw(mesh);
      t = lap(phases, "draw", t);
      await new Promise((r) => requestAnimationFrame(r));
      lap(phases, "present", t);
      state.stats.roundTripMs = performance.now() - started;
      state.stats.clientMs = Math.max(0, state.stats.roundTripMs - state.stats.serverMs);
      state.stats.phases = phases;
      state.stats.frames += 1;
      showError(null);
      batch.forEach((w) => w.resolve(stats()));
    } catch (error) {
      showError(error);
      batch.forEach((w) => w.reject(error));
    } finally {
      inflight = false;
      if (dirty) pump();
    }
  }
  async function errorOf(response) {
    let body = { error: `HTTP ${response.status}`, path: "" };
    try { body = await response.json(); } catch (_) { /* not JSON */ }
    body.status = response.status;
    return body;
  }
  function showError(error) {
    state.lastError = error;
    $("error").textContent = error ? `error: ${error.error || error.message || error}` : "";
  }

  // ---- Drawing --------------------------------------------------------------------------------

  function layout() {
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(stage.clientWidth * dpr)), height = Math.max(1, Math.round(stage.clientHeight * dpr));
    for (const c of [surface, overlay]) {
      if (c.width !== width || c.height !== height) { c.width = width; c.height = height; }
      c.style.width = stage.clientWidth + "px";
      c.style.height = stage.clientHeight + "px";
    }
    const [w, h] = state.mesh ? sizeOf(state.mesh) : [1, 1];
    const scale = Math.min(width / w, height / h) * LAYER_SHARE;
    state.view = { scale, x: (width - scale * w) / 2, y: (height - scale * h) / 2, width, height };
  }
  function draw(mesh) {
    layout();
    const [w, h] = sizeOf(mesh);
    renderer.draw({
      layer: S.layerOf(mesh), view: state.view, opacity: state.options.opacity, wireframe: state.options.wireframe,
      depthScale: 1 / (16 * Math.max(w, h, depthScaleOf(mesh))),
    });
    drawOverlay(mesh);
    const s = state.stats;
    $("status").textContent = `${s.triangles} triangles, ${s.vertices} vertices\nserver ${s.serverMs.toFixed(1)} ms, frame ${s.roundTripMs.toFixed(1)} ms`;
  }
  function toCanvas(p) { return [state.view.x + state.view.scale * p.x, state.view.y + state.view.scale * p.y]; }
  function handlePoints(mesh) {
    const layer = S.layerOf(mesh), [w, h] = sizeOf(mesh), d = depthScaleOf(mesh);
    return mesh.vertices.map((v) => project(layer, [v.to[0] * w, v.to[1] * h, v.to[2] * d]));
  }
  function drawOverlay(mesh) {
    const ctx = overlay.getContext("2d");
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    const dpr = window.devicePixelRatio || 1;
    // The layer's untransformed bounds, dashed.
    const [w, h] = sizeOf(mesh);
    ctx.setLineDash([4 * dpr, 4 * dpr]);
    ctx.strokeStyle = "rgba(60,70,90,0.5)";
    ctx.strokeRect(state.view.x, state.view.y, state.view.scale * w, state.view.scale * h);
    ctx.setLineDash([]);
    if (state.options.controlMesh) {
      const points = handlePoints(mesh);
      ctx.strokeStyle = "rgba(30,80,200,0.55)";
      ctx.lineWidth = dpr;
      ctx.beginPath();
      for (const f of mesh.faces) {
        const corners = f.indices.map((i) => points[i]);
        if (corners.some((c) => !(c.w > 0))) continue;
        corners.forEach((c, k) => { const [x, y] = toCanvas(c); if (k === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y); });
        ctx.closePath();
      }
      ctx.stroke();
      const radius = (points.length > 2000 ? 1.5 : 4) * dpr;
      ctx.fillStyle = "rgba(255,255,255,0.95)";
      ctx.strokeStyle = "rgba(20,60,180,0.9)";
      for (const p of points) {
        if (!(p.w > 0)) continue;
        const [x, y] = toCanvas(p);
        ctx.beginPath();
        ctx.arc(x, y, radius, 0, 2 * Math.PI);
        ctx.fill();
        ctx.stroke();
      }
    }
    if (state.hitMark) {
      const [x, y] = toCanvas(state.hitMark.point);
      ctx.strokeStyle = "#d0202a";
      ctx.lineWidth = 2 * dpr;
      ctx.beginPath();
      ctx.moveTo(x - 8 * dpr, y); ctx.lineTo(x + 8 * dpr, y); ctx.moveTo(x, y - 8 * dpr); ctx.lineTo(x, y + 8 * dpr);
      ctx.stroke();
      ctx.fillStyle = "#d0202a";
      ctx.font = `${12 * dpr}px ui-monospace, monospace`;
      ctx.fillText(state.hitMark.label, x + 10 * dpr, y - 10 * dpr);
    }
  }
  function redraw() { if (state.mesh && renderer.indexCount) draw(displayed()); }

  // ---- Content --------------------------------------------------------------------------------

  // The default content, as `meshgeo render` makes it: 8 cells along the shorter side, light and
  // dark grey, the top-left cell red.
  function checkerboard(mesh) {
    const [w, h] = sizeOf(mesh), longest = 512;
    const cw = Math.max(8, Math.round((longest * w) / Math.max(w, h))), ch = Math.max(8, Math.round((longest * h) / Math.max(w, h)));
    const c = document.createElement("canvas");
    c.width = cw; c.height = ch;
    const ctx = c.getContext("2d"), side = Math.max(1, Math.floor(Math.min(cw, ch) / 8));
    for (let y = 0; y * side < ch; y++) for (let x = 0; x * side < cw; x++) {
      ctx.fillStyle = x === 0 && y === 0 ? "rgb(214,84,72)" : (x + y) % 2 === 0 ? "rgb(236,236,236)" : "rgb(150,158,170)";
      ctx.fillRect(x * side, y * side, side, side);
    }
    return c;
  }
  let customContent = false;

  // ---- window.meshgeo ---------------------------------------------------------------------------

  function stats() { return Object.assign({}, state.stats, { phases: Object.assign({}, state.stats.phases), serverStages: Object.assign({}, state.stats.serverStages) }); }
  function firstSteps(mesh) {
    let steps = 0;
    while (steps < 3 && 2 * mesh.faces.length * Math.pow(4, steps + 1) <= FIRST_STEPS_TRIANGLES) steps++;
    return String(steps);
  }
  async function load(meshJSON, keepSteps) {
    const mesh = typeof meshJSON === "string" ? JSON.parse(meshJSON) : clone(meshJSON);
    const previous = { mesh: state.mesh, base: state.baseTransform, second: state.second };
    state.mesh = mesh;
    state.baseTransform = (mesh.layer && mesh.layer.transform) || identity;
    state.second = "identity";
    $("second").value = "identity";
    state.hitMark = null;
    lastOptions = null;
    lastTag = null;
    // A new mesh is sent whole, so that its errors name the paths inside it (vertices[3].to).
    sent = null;
    if (!keepSteps) { state.options.steps = firstSteps(mesh); $("steps").value = state.options.steps; }
    const lights = mesh.layer && mesh.layer.lights;
    $("lightsNote").textContent = lights ? `layer.lights: ${lights.length} light(s) from the mesh` : "";
    if (!customContent) renderer.setContent(checkerboard(mesh));
    try {
      return await requestFrame();
    } catch (error) {
      if (previous.mesh) { state.mesh = previous.mesh; state.baseTransform = previous.base; state.second = previous.second; lastOptions = null; sent = null; requestFrame().catch(() => {}); }
      throw error;
    }
  }
  function setVertex(index, change) {
    const v = state.mesh && state.mesh.vertices[index];
    if (!v) return Promise.reject(new Error(`no vertex ${index}`));
    if (change.to) v.to = change.to.slice(0, 3);
    if (change.from) v.from = change.from.slice(0, 2);
    return requestFrame();
  }
  const controlIds = ["steps", "diagonal", "sort", "opacity", "rotateX", "rotateY", "perspective", "wireframe", "controlMesh", "hitMode", "fraction"];
  function set(options) {
    const o = state.options;
    for (const key of controlIds) {
      if (!(key in options)) continue;
      o[key] = key === "steps" ? String(options[key]) : options[key];
      const input = $(key);
      if (input.type === "checkbox") input.checked = !!o[key]; else input.value = o[key];
    }
    if ("light" in options) {
      o.light = options.light && Object.assign({ azimuth: 0, elevation: 90, diffuse: 1 }, options.light);
      if (o.light) { $("lightAzimuth").value = o.light.azimuth; $("lightElevation").value = o.light.elevation; $("lightDiffuse").value = o.light.diffuse; }
    }
    if ("second" in options) {
      const second = options.second;
      if (second === "identity") state.second = "identity";
      else if (second === "snapshot") state.second = clone(state.mesh);
      else {
        const mesh = typeof second === "string" ? JSON.parse(second) : clone(second);
        const problem = compatible(state.mesh, mesh);
        if (problem) return Promise.reject(new Error(problem));
        state.second = mesh;
      }
    }
    return requestFrame();
  }
  async function hit(x, y) {
    const o = state.options;
    const body = { mesh: displayed(), points: [[x, y]], exact: true, steps: o.steps === "auto" ? "auto" : Number(o.steps), diagonal: o.diagonal };
    const response = await fetch("/api/hit", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (!response.ok) throw await errorOf(response);
    const result = (await response.json()).hits[0];
    state.hitMark = { point: { x, y }, label: result.hit ? `from (${result.from[0].toFixed(4)}, ${result.from[1].toFixed(4)})` : "no hit" };
    redraw();
    return result;
  }
  // The WebGL canvas's pixels, top row first, as base64 RGBA (premultiplied, as drawn).
  function pixels() {
    const gl = renderer.gl, width = surface.width, height = surface.height;
    const raw = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, raw);
    const flipped = new Uint8Array(raw.length), row = width * 4;
    for (let y = 0; y < height; y++) flipped.set(raw.subarray((height - 1 - y) * row, (height - y) * row), y * row);
    let text = "";
    for (let i = 0; i < flipped.length; i += 0x8000) text += String.fromCharCode.apply(null, flipped.subarray(i, i + 0x8000));
    return { width, height, rgba: btoa(text) };
  }

  window.meshgeo = {
    load: (meshJSON) => load(meshJSON, false),
    mesh: () => clone(state.mesh),
    displayed: () => clone(displayed()),
    setVertex, set, hit, stats,
    shade: (content, point, normal, mesh) => S.shade(mesh || displayed(), content, point, normal),
    view: () => Object.assign({}, state.view),
    pixels,
    lastError: () => state.lastError,
    ready: false,
  };

  // ---- Controls ---------------------------------------------------------------------------------

  for (const key of controlIds) {
    const input = $(key);
    input.addEventListener(input.type === "checkbox" || input.tagName === "SELECT" ? "change" : "input", () => {
      const value = input.type === "checkbox" ? input.checked : input.type === "range" ? Number(input.value) : input.value;
      set({ [key]: value }).catch(() => {});
    });
  }
  for (const id of ["lightAzimuth", "lightElevation", "lightDiffuse"]) {
    $(id).addEventListener("input", () => {
      set({ light: { azimuth: Number($("lightAzimuth").value), elevation: Number($("lightElevation").value), diffuse: Number($("lightDiffuse").value) } }).catch(() => {});
    });
  }
  $("example").addEventListener("change", async () => {
    const name = $("example").value;
    const response = await fetch(name ? `/api/examples/${name}` : "/api/mesh");
    load(await response.json(), false).catch(() => {});
  });
  $("second").addEventListener("change", async () => {
    const value = $("second").value;
    if (value === "identity" || value === "snapshot") { set({ second: value }).catch(() => {}); return; }
    const mesh = await (await fetch(`/api/examples/${value}`)).json();
    set({ second: mesh }).catch((e) => showError(e));
  });
  let playing = null;
  $("play").addEventListener("click", () => {
    if (playing) { cancelAnimationFrame(playing); playing = null; $("play").textContent = "Play"; return; }
    $("play").textContent = "Stop";
    const start = performance.now();
    const tick = (now) => {
      const phase = ((now - start) / 2000) % 2;
      const t = phase < 1 ? phase : 2 - phase;
      state.options.fraction = t;
      $("fraction").value = t;
      requestFrame().catch(() => {});
      playing = requestAnimationFrame(tick);
    };
    playing = requestAnimationFrame(tick);
  });
  function download(name, blob) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
  for (const button of document.querySelectorAll("[data-export]")) {
    button.addEventListener("click", async () => {
      const kind = button.dataset.export;
      if (kind === "json") { download("mesh.json", new Blob([JSON.stringify(displayed(), null, 1)], { type: "application/json" })); return; }
      if (kind === "png") { surface.toBlob((blob) => download("meshgeo.png", blob), "image/png"); return; }
      const body = Object.assign({ mesh: displayed() }, tessellationOptions());
      body.format = kind;
      body.space = undefined;
      const response = await fetch("/api/export", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      if (!response.ok) { showError(await errorOf(response)); return; }
      download(`mesh.${kind}`, await response.blob());
    });
  }

  // Dragging a handle moves its vertex's `to` in the plane of constant depth under the pointer;
  // in hit mode a click asks the server which layer point is there.
  let drag = null;
  function pointerPoint(event) {
    const dpr = window.devicePixelRatio || 1, rect = overlay.getBoundingClientRect();
    return [(event.clientX - rect.left) * dpr, (event.clientY - rect.top) * dpr];
  }
  overlay.addEventListener("pointerdown", (event) => {
    if (!state.mesh) return;
    const [px, py] = pointerPoint(event);
    const mesh = displayed();
    if (state.options.controlMesh) {
      const points = handlePoints(mesh);
      let best = -1, bestDistance = HANDLE_PICK_PIXELS * (window.devicePixelRatio || 1);
      points.forEach((p, i) => {
        if (!(p.w > 0)) return;
        const [x, y] = toCanvas(p);
        const d = Math.hypot(x - px, y - py);
        if (d < bestDistance) { best = i; bestDistance = d; }
      });
      if (best >= 0) { drag = best; overlay.setPointerCapture(event.pointerId); return; }
    }
    if (state.options.hitMode) hit((px - state.view.x) / state.view.scale, (py - state.view.y) / state.view.scale).catch((e) => showError(e));
  });
  overlay.addEventListener("pointermove", (event) => {
    if (drag === null) return;
    const [px, py] = pointerPoint(event);
    const mesh = displayed(), layer = S.layerOf(mesh), [w, h] = sizeOf(mesh), v = state.mesh.vertices[drag];
    const xy = unproject(layer, (px - state.view.x) / state.view.scale, (py - state.view.y) / state.view.scale, v.to[2] * depthScaleOf(mesh));
    if (!xy) return;
    setVertex(drag, { to: [xy[0] / w, xy[1] / h, v.to[2]] }).catch(() => {});
  });
  overlay.addEventListener("pointerup", () => { drag = null; });
  stage.addEventListener("dragover", (event) => { event.preventDefault(); $("drop").style.display = "flex"; });
  stage.addEventListener("dragleave", () => { $("drop").style.display = "none"; });
  stage.addEventListener("drop", async (event) => {
    event.preventDefault();
    $("drop").style.display = "none";
    const file = event.dataTransfer.files[0];
    if (!file) return;
    renderer.setContent(await createImageBitmap(file));
    customContent = true;
    redraw();
  });
  window.addEventListener("resize", redraw);

  (async () => {
    try {
      const examples = await (await fetch("/api/examples")).json();
      for (const e of examples) {
        for (const id of ["example", "second"]) {
          const option = document.createElement("option");
          option.value = e.name;
          option.textContent = e.name;
          option.title = e.summary;
          $(id).appendChild(option);
        }
      }
      await load(await (await fetch("/api/mesh")).json(), false);
    } catch (error) {
      showError(error);
    }
    window.meshgeo.ready = true;
  })();
})();
