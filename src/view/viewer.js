// The blockdyn viewer page's script (see src/view/mod.rs and src/view/data.rs for the data).
// Plain JavaScript, no build step. Loads the embedded three.js through blob: module URLs, draws
// the mechanism at the slider's time, the contact forces as arrows and the signals under it.
// Units: lengths m, time s, forces N; every vector in the World frame.
(function () {
  'use strict';

  // ---- status for tests: <pre id="status"> holds JSON, read with chromium --dump-dom ----
  const status = { state: 'loading', errors: [], webgl: false };
  const statusEl = document.getElementById('status');
  function report() { statusEl.textContent = JSON.stringify(status); }
  function fail(message) {
    status.errors.push(String(message));
    status.state = 'error';
    report();
  }
  window.addEventListener('error', (e) => fail(e.message || e));
  window.addEventListener('unhandledrejection', (e) => fail(e.reason));
  const consoleError = console.error.bind(console);
  console.error = function (...args) { status.errors.push(args.map(String).join(' ')); report(); consoleError(...args); };

  const data = JSON.parse(document.getElementById('blockdyn-data').textContent);
  const frames = data.frames;
  const t0 = data.t0;
  const t1 = Math.max(data.t1, t0);
  const span = t1 > t0 ? t1 - t0 : 1;

  // ---- time, playback and the slider ----
  let time = t0;
  let playing = false;
  let speed = 1;
  let lastWall = null;
  const slider = document.getElementById('slider');
  const playButton = document.getElementById('play');
  const timeLabel = document.getElementById('time');
  const forcesBox = document.getElementById('forces');
  slider.min = String(t0);
  slider.max = String(t1);

  /** The index of the last frame at or before t (0 before the first). */
  function frameAt(t) {
    let lo = 0, hi = frames.length - 1;
    if (hi < 0 || t <= frames[0].t) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (frames[mid].t <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  function setPlaying(p) {
    playing = p;
    playButton.textContent = p ? 'Pause' : 'Play';
    lastWall = null;
    if (p && time >= t1) time = t0;
  }

  playButton.addEventListener('click', () => setPlaying(!playing));
  document.getElementById('speed').addEventListener('change', (e) => { speed = Number(e.target.value); });
  slider.addEventListener('input', () => { setPlaying(false); setTime(Number(slider.value)); });
  forcesBox.addEventListener('change', () => draw());
  window.addEventListener('keydown', (e) => {
    if (e.code === 'Space' && e.target.tagName !== 'SELECT') { e.preventDefault(); setPlaying(!playing); }
  });

  // Event marks over the slider; a click jumps to the event.
  const marks = document.getElementById('marks');
  for (const ev of data.events) {
    const m = document.createElement('div');
    m.className = 'mark';
    m.style.left = (100 * (ev.t - t0) / span) + '%';
    m.title = ev.block + ' at t = ' + ev.t + ' s';
    m.addEventListener('click', () => { setPlaying(false); setTime(ev.t); });
    marks.appendChild(m);
  }
  if (data.events_dropped > 0) marks.title = data.events_dropped + ' later events not shown';

  // ---- the plots: one canvas per panel, a cursor line, values at the cursor in the legend ----
  const plotColors = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  const PAD = { left: 56, right: 10, top: 8, bottom: 18 };
  const plots = [];

  /** The value of polylines `lines` ([[t, v, t, v, ...], ...]) at t, linear between points; null in a gap. */
  function valueAt(lines, t) {
    for (const line of lines) {
      const n = line.length / 2;
      if (n === 0 || t < line[0] || t > line[2 * n - 2]) continue;
      let lo = 0, hi = n - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (line[2 * mid] <= t) lo = mid; else hi = mid;
      }
      const ta = line[2 * lo], tb = line[2 * hi];
      const va = line[2 * lo + 1], vb = line[2 * hi + 1];
      return tb > ta ? va + (vb - va) * (t - ta) / (tb - ta) : vb;
    }
    return null;
  }

  function formatNumber(v) {
    if (v === null || !isFinite(v)) return '–';
    const a = Math.abs(v);
    if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(3);
    return String(Number(v.toPrecision(4)));
  }

  /** Tick values over [lo, hi]: multiples of a 1, 2 or 5 × 10^k step, about `count` of them. */
  function ticks(lo, hi, count) {
    const raw = (hi - lo) / count;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step) {
      out.push(Math.abs(v) < 1e-9 * step ? 0 : v);
    }
    return out;
  }

  function buildPlots() {
    const root = document.getElementById('plots');
    data.panels.forEach((panel) => {
      const div = document.createElement('div');
      div.className = 'panel';
      const h = document.createElement('h2');
      h.textContent = panel.title;
      const canvas = document.createElement('canvas');
      const cursor = document.createElement('div');
      cursor.className = 'cursor';
      const legend = document.createElement('div');
      legend.className = 'legend';
      const values = panel.series.map((s, k) => {
        const item = document.createElement('span');
        const sw = document.createElement('span');
        sw.className = 'swatch';
        sw.style.background = plotColors[k % plotColors.length];
        const text = document.createElement('span');
        item.append(sw, text);
        legend.appendChild(item);
        return text;
      });
      div.append(h, canvas, cursor, legend);
      root.appendChild(div);
      let lo = Infinity, hi = -Infinity;
      for (const s of panel.series) for (const line of s.lines) {
        for (let i = 1; i < line.length; i += 2) { lo = Math.min(lo, line[i]); hi = Math.max(hi, line[i]); }
      }
      if (!(lo <= hi)) { lo = -1; hi = 1; }
      if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) { lo -= 0.5; hi += 0.5; }
      const margin = 0.05 * (hi - lo);
      plots.push({ panel, canvas, cursor, values, lo: lo - margin, hi: hi + margin });
    });
  }

  function drawPlot(p) {
    const c = p.canvas;
    const ratio = window.devicePixelRatio || 1;
    const w = c.clientWidth, h = c.clientHeight;
    c.width = Math.max(1, Math.round(w * ratio));
    c.height = Math.max(1, Math.round(h * ratio));
    const g = c.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, w, h);
    const pw = w - PAD.left - PAD.right, ph = h - PAD.top - PAD.bottom;
    const x = (t) => PAD.left + pw * (t - t0) / span;
    const y = (v) => PAD.top + ph * (p.hi - v) / (p.hi - p.lo);
    g.strokeStyle = '#d5d8de';
    g.fillStyle = '#556';
    g.font = '11px system-ui, sans-serif';
    g.lineWidth = 1;
    for (const v of ticks(p.lo, p.hi, 4)) {
      g.beginPath(); g.moveTo(PAD.left, y(v)); g.lineTo(PAD.left + pw, y(v)); g.stroke();
      g.textAlign = 'right'; g.textBaseline = 'middle';
      g.fillText(formatNumber(v), PAD.left - 4, y(v));
    }
    g.textAlign = 'center'; g.textBaseline = 'top';
    for (const t of ticks(t0, t0 + span, 6)) {
      g.fillText(formatNumber(t) + ' s', x(t), PAD.top + ph + 3);
    }
    p.panel.series.forEach((s, k) => {
      g.strokeStyle = plotColors[k % plotColors.length];
      g.lineWidth = 1.5;
      for (const line of s.lines) {
        g.beginPath();
        for (let i = 0; i < line.length; i += 2) {
          if (i === 0) g.moveTo(x(line[i]), y(line[i + 1])); else g.lineTo(x(line[i]), y(line[i + 1]));
        }
        g.stroke();
      }
    });
    p.geometry = { left: c.offsetLeft + PAD.left, top: c.offsetTop + PAD.top, width: pw, height: ph };
  }

  function moveCursors() {
    const cursors = [];
    for (const p of plots) {
      const gm = p.geometry;
      const left = gm.left + gm.width * (time - t0) / span;
      p.cursor.style.left = left + 'px';
      p.cursor.style.top = gm.top + 'px';
      p.cursor.style.height = gm.height + 'px';
      p.panel.series.forEach((s, k) => {
        const unit = s.unit ? ' ' + s.unit : '';
        p.values[k].textContent = (s.legend || s.name) + ' = ' + formatNumber(valueAt(s.lines, time)) + unit;
      });
      cursors.push({ left, plot_left: gm.left, plot_width: gm.width });
    }
    status.cursors = cursors;
  }

  // ---- the 3-D scene ----
  let THREE = null, renderer = null, camera = null, scene = null, controls = null;
  const groups = [];
  const arrowPool = [];
  const pointPool = [];
  let sceneSize = 1;

  function buildScene(OrbitControls) {
    const holder = document.getElementById('scene');
    try {
      renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch (e) {
      const m = document.createElement('div');
      m.className = 'message';
      m.textContent = 'WebGL is not available in this browser: the scene cannot be drawn (' + e.message + ').';
      holder.appendChild(m);
      return;
    }
    status.webgl = true;
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    holder.appendChild(renderer.domElement);
    scene = new THREE.Scene();
    scene.background = new THREE.Color(data.colors.background);
    const cam = data.camera;
    const eye = new THREE.Vector3(...cam.eye), target = new THREE.Vector3(...cam.target);
    sceneSize = Math.max(eye.distanceTo(target), 1e-6);
    camera = new THREE.PerspectiveCamera(cam.fov_deg, 1, 1e-3 * sceneSize, 1e3 * sceneSize);
    camera.up.set(...cam.up);
    camera.position.copy(eye);
    camera.lookAt(target);
    // The light is fixed to the camera (as the GIF's), above and left of the viewer.
    const light = new THREE.DirectionalLight(0xffffff, 2.2);
    light.position.set(-0.4, 0.6, 0.7);
    camera.add(light);
    scene.add(camera);
    scene.add(new THREE.AmbientLight(0xffffff, 0.9));
    for (const item of data.items) groups.push(buildItem(item));
    controls = new OrbitControls(camera, renderer.domElement);
    controls.target.copy(target);
    controls.update();
    controls.addEventListener('change', () => render3d());
  }

  function buildItem(item) {
    const group = new THREE.Group();
    const positions = new THREE.Float32BufferAttribute(item.v, 3);
    if (item.tri.length > 0) {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', positions);
      geometry.setIndex(item.tri);
      geometry.computeVertexNormals();
      const material = new THREE.MeshLambertMaterial({
        color: item.color, flatShading: true,
        side: item.closed ? THREE.FrontSide : THREE.DoubleSide,
        polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
      });
      group.add(new THREE.Mesh(geometry, material));
    }
    if (item.edges.length > 0) {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', positions);
      geometry.setIndex(item.edges);
      group.add(new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: data.colors.edge })));
    }
    if (item.mark_tri.length > 0) {
      // Spin marks: faces in the edge colour, so that a body turning about its symmetry axis shows it.
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', positions);
      geometry.setIndex(item.mark_tri);
      const material = new THREE.MeshBasicMaterial({
        color: data.colors.edge, side: item.closed ? THREE.FrontSide : THREE.DoubleSide,
        polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
      });
      group.add(new THREE.Mesh(geometry, material));
    }
    for (let ink = 0; ink < data.colors.inks.length; ink++) {
      // Glyph lines (frame axes, joint axes, massless links), one line set per colour.
      const index = [];
      for (let k = 0; k + 2 < item.inked.length; k += 3) {
        if (item.inked[k + 2] === ink) index.push(item.inked[k], item.inked[k + 1]);
      }
      if (index.length === 0) continue;
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', positions);
      geometry.setIndex(index);
      group.add(new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: data.colors.inks[ink] })));
    }
    if (item.markers.length > 0) {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.Float32BufferAttribute(item.markers, 3));
      const material = new THREE.PointsMaterial({ color: data.colors.marker, size: 6, sizeAttenuation: false });
      group.add(new THREE.Points(geometry, material));
    }
    group.userData.label = item.label;
    scene.add(group);
    return group;
  }

  const qa = { q: null, qb: null };
  /** Each item's pose at `time`: interpolated between the frames around it (position linear, rotation slerp). */
  function poseItems(k) {
    const a = frames[k], b = frames[Math.min(k + 1, frames.length - 1)];
    const w = b.t > a.t ? Math.min(Math.max((time - a.t) / (b.t - a.t), 0), 1) : 0;
    if (!qa.q) { qa.q = new THREE.Quaternion(); qa.qb = new THREE.Quaternion(); }
    groups.forEach((g, i) => {
      const pa = a.pose.slice(7 * i, 7 * i + 7), pb = b.pose.slice(7 * i, 7 * i + 7);
      if (pa.some((v) => v === null)) { g.visible = false; return; }
      const p = pb.some((v) => v === null) ? pa : pb;
      g.visible = true;
      g.position.set(pa[0] + w * (p[0] - pa[0]), pa[1] + w * (p[1] - pa[1]), pa[2] + w * (p[2] - pa[2]));
      qa.q.set(pa[3], pa[4], pa[5], pa[6]);
      qa.qb.set(p[3], p[4], p[5], p[6]);
      g.quaternion.slerpQuaternions(qa.q, qa.qb, w);
    });
  }

  /** The arrows of frame k (the frame at or before `time`): force f at point p, length |f|·arrow_scale. */
  function placeArrows(k) {
    const list = forcesBox.checked ? frames[k].arrows : [];
    const n = list.length / 6;
    let used = 0;
    for (let j = 0; j < n; j++) {
      const v = list.slice(6 * j, 6 * j + 6);
      if (v.some((x) => x === null)) continue;
      const f = new THREE.Vector3(v[3], v[4], v[5]);
      const length = f.length() * data.arrow_scale;
      if (!(length > 1e-3 * sceneSize)) continue;
      if (used === arrowPool.length) {
        const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 1, data.colors.arrow);
        const dot = new THREE.Mesh(new THREE.SphereGeometry(1, 12, 8), new THREE.MeshBasicMaterial({ color: data.colors.arrow }));
        // Drawn over everything, as in the GIF: a contact point is usually inside a body's outline.
        for (const part of [arrow.line, arrow.cone, dot]) {
          part.material.depthTest = false;
          part.renderOrder = 1;
        }
        arrowPool.push(arrow); pointPool.push(dot);
        scene.add(arrow); scene.add(dot);
      }
      const arrow = arrowPool[used], dot = pointPool[used];
      arrow.position.set(v[0], v[1], v[2]);
      arrow.setDirection(f.normalize());
      const head = Math.min(0.3 * length, 0.04 * sceneSize);
      arrow.setLength(length, head, 0.5 * head);
      dot.position.set(v[0], v[1], v[2]);
      dot.scale.setScalar(0.006 * sceneSize);
      arrow.visible = dot.visible = true;
      used++;
    }
    for (let j = used; j < arrowPool.length; j++) arrowPool[j].visible = pointPool[j].visible = false;
    return used;
  }

  function render3d() {
    if (renderer) renderer.render(scene, camera);
  }

  function resize() {
    if (renderer) {
      const holder = document.getElementById('scene');
      renderer.setSize(holder.clientWidth, holder.clientHeight, false);
      camera.aspect = holder.clientWidth / Math.max(1, holder.clientHeight);
      camera.updateProjectionMatrix();
    }
    for (const p of plots) drawPlot(p);
    draw();
  }

  // ---- drawing one instant ----
  function setTime(t) {
    time = Math.min(Math.max(t, t0), t1);
    draw();
  }

  function draw() {
    const k = frameAt(time);
    slider.value = String(time);
    timeLabel.textContent = 't = ' + time.toFixed(3) + ' s';
    if (renderer && frames.length > 0) {
      poseItems(k);
      status.arrows = placeArrows(k);
      render3d();
      // The drawn pose of the first items (x, y, z, qx, qy, qz, qw), for tests.
      status.poses = groups.slice(0, 8).map((g) => (g.visible
        ? [g.position.x, g.position.y, g.position.z, g.quaternion.x, g.quaternion.y, g.quaternion.z, g.quaternion.w]
        : null));
    }
    moveCursors();
    status.t = time;
    status.frame = k;
    status.frames = frames.length;
    status.labels = data.items.slice(0, 8).map((item) => item.label);
    const r = document.getElementById('scene').getBoundingClientRect();
    status.scene = { left: r.left, top: r.top, width: r.width, height: r.height };
    status.panels = plots.length;
    if (status.state !== 'error') status.state = 'ready';
    report();
  }

  function tick(now) {
    if (playing) {
      if (lastWall !== null) {
        time += speed * (now - lastWall) / 1000;
        if (time > t1) time = t0 + (time - t1) % span;
      }
      lastWall = now;
      draw();
    }
    requestAnimationFrame(tick);
  }

  /** A module URL for the text of script element `id` (after `edit`). */
  function moduleUrl(id, edit) {
    const text = document.getElementById(id).textContent;
    return URL.createObjectURL(new Blob([edit ? edit(text) : text], { type: 'text/javascript' }));
  }

  async function main() {
    buildPlots();
    const hash = /[#&]t=([-+0-9.eE]+)/.exec(window.location.hash);
    try {
      const threeUrl = moduleUrl('three-src');
      THREE = await import(threeUrl);
      const orbitUrl = moduleUrl('orbit-src', (s) => s.replace("from 'three'", "from '" + threeUrl + "'"));
      const { OrbitControls } = await import(orbitUrl);
      buildScene(OrbitControls);
    } catch (e) {
      fail('three.js did not load: ' + e);
    }
    window.addEventListener('resize', resize);
    resize();
    if (hash) setTime(Number(hash[1])); else setPlaying(true);
    requestAnimationFrame(tick);
  }

  main();
})();
