// The web demo: the page imports the npm package the way a bundler-free page
// would; the package fetches its dist/*.wasm relative to its own URL.
import { load, features } from '/bindings-js/index.js';

const $ = (id) => document.getElementById(id);
const MODEL_URL = new URL('model/digits.holo', import.meta.url);
const MEMORY_BUDGET = 32 << 20; // bound on transient bytes: drawing forever stays bounded
const SIDE = 28, BOX = 20;      // MNIST: the digit fits a 20x20 box, centred by mass in 28x28

const fmtBytes = (n) => (n >= 1048576 ? `${(n / 1048576).toFixed(2)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);
const fmtMs = (v) => `${v < 0.1 ? v.toFixed(4) : v.toFixed(3)} ms`;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const errText = (e) => (e && e.code ? `${e.code}: ${e.message}` : String(e && e.message ? e.message : e));

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url.pathname ?? url}: HTTP ${r.status} ${(await r.text()).trim()}`);
  return new Uint8Array(await r.arrayBuffer());
}

// ---------------------------------------------------------------- digits ---
const pad = $('pad'), pctx = pad.getContext('2d', { willReadFrequently: true });
const seen = $('seen'), sctx = seen.getContext('2d');
let digits = null, lastInput = null, dirty = false, drawing = false, last = null;
const latencies = [];

function buildBars() {
  const bars = $('bars');
  for (let d = 0; d < 10; d++) {
    const row = document.createElement('div');
    row.className = 'bar';
    row.setAttribute('role', 'listitem');
    row.dataset.digit = String(d);
    row.dataset.prob = '0';
    row.innerHTML = `<span>${d}</span><div class="track"><div class="fill"></div></div><span class="pct">–</span>`;
    bars.append(row);
  }
}

/** The canvas as the model's input: ink in [0,1], scaled to fit 20x20 and centred by mass in 28x28. */
function preprocess() {
  const { width: W, height: H } = pad;
  const px = pctx.getImageData(0, 0, W, H).data;
  let x0 = W, y0 = H, x1 = -1, y1 = -1, mass = 0, mx = 0, my = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = px[(y * W + x) * 4 + 3] / 255;
      if (v <= 0) continue;
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
      mass += v; mx += v * (x + 0.5); my += v * (y + 0.5);
    }
  }
  const out = new Float32Array(SIDE * SIDE);
  if (mass === 0) return null;
  const s = Math.min(BOX / Math.max(x1 - x0 + 1, y1 - y0 + 1), 0.5); // target pixels per canvas pixel
  const cx = mx / mass, cy = my / mass, area = s * s;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const v = px[(y * W + x) * 4 + 3] / 255;
      if (v <= 0) continue;
      // bilinear splat of this pixel's area onto the 28x28 grid
      const fx = (x + 0.5 - cx) * s + SIDE / 2 - 0.5, fy = (y + 0.5 - cy) * s + SIDE / 2 - 0.5;
      const ix = Math.floor(fx), iy = Math.floor(fy), wx = fx - ix, wy = fy - iy, a = v * area;
      for (const [tx, ty, w] of [[ix, iy, (1 - wx) * (1 - wy)], [ix + 1, iy, wx * (1 - wy)], [ix, iy + 1, (1 - wx) * wy], [ix + 1, iy + 1, wx * wy]]) {
        if (tx >= 0 && tx < SIDE && ty >= 0 && ty < SIDE) out[ty * SIDE + tx] += a * w;
      }
    }
  }
  for (let i = 0; i < out.length; i++) out[i] = Math.min(1, out[i]);
  return out;
}

function showSeen(input) {
  const img = sctx.createImageData(SIDE, SIDE);
  for (let i = 0; i < SIDE * SIDE; i++) {
    const v = Math.round((input ? input[i] : 0) * 255);
    img.data.set([v, v, v, 255], i * 4);
  }
  sctx.putImageData(img, 0, 0);
}

function showCounters(c) {
  $('c-dispatches').textContent = c.dispatches;
  $('c-elided').textContent = c.elided;
  $('c-memo').textContent = c.memoHits;
  $('c-executions').textContent = c.executions;
  $('c-evictions').textContent = c.evictions;
  $('resident').textContent = `${fmtBytes(digits.residentBytes)} (${digits.residentCount} values)`;
}

function classify(input) {
  const before = digits.counters;
  const inName = digits.inputs[0].name, outName = digits.outputs[0].name;
  const t0 = performance.now();
  const out = digits.run({ [inName]: { data: input, shape: [1, 1, SIDE, SIDE] } })[outName];
  const ms = performance.now() - t0;
  const after = digits.counters;
  const probs = Array.from(out.data);
  const best = probs.reduce((b, v, k) => (v > probs[b] ? k : b), 0);
  document.querySelectorAll('#bars .bar').forEach((row, d) => {
    row.dataset.prob = String(probs[d]);
    row.classList.toggle('top', d === best);
    row.querySelector('.fill').style.width = `${(probs[d] * 100).toFixed(2)}%`;
    row.querySelector('.pct').textContent = `${(probs[d] * 100).toFixed(1)}%`;
  });
  const pred = $('prediction');
  pred.textContent = String(best);
  pred.dataset.seq = String(Number(pred.dataset.seq) + 1);
  $('confidence').textContent = `${(probs[best] * 100).toFixed(1)}% confident`;
  latencies.push(ms);
  if (latencies.length > 200) latencies.shift();
  const nd = after.dispatches - before.dispatches;
  const how = after.memoHits > before.memoHits ? 'memo hit' : nd === 0 ? 'all nodes resident' : `${nd} dispatches`;
  $('latency').textContent = `${fmtMs(ms)} (${how})`;
  $('latency').dataset.ms = String(ms);
  $('median').textContent = `${fmtMs(median(latencies))} over ${latencies.length}`;
  $('label').textContent = out.label;
  showCounters(after);
}

function predictNow() {
  dirty = false;
  if (!digits) return;
  const input = preprocess();
  showSeen(input);
  if (!input) return;
  lastInput = input;
  $('again').disabled = false;
  try {
    classify(input);
  } catch (e) {
    $('status').textContent = `execute failed: ${errText(e)}`;
    $('status').classList.add('error');
  }
}

function schedule() {
  if (dirty) return;
  dirty = true;
  requestAnimationFrame(predictNow);
}

function at(e) {
  const r = pad.getBoundingClientRect();
  return [(e.clientX - r.left) * (pad.width / r.width), (e.clientY - r.top) * (pad.height / r.height)];
}

function stroke(from, to) {
  pctx.lineCap = 'round';
  pctx.lineJoin = 'round';
  pctx.lineWidth = 20;
  pctx.strokeStyle = '#fff';
  pctx.beginPath();
  pctx.moveTo(...from);
  pctx.lineTo(...to);
  pctx.stroke();
}

function clearPad() {
  pctx.clearRect(0, 0, pad.width, pad.height);
  lastInput = null;
  $('again').disabled = true;
  showSeen(null);
  $('prediction').textContent = '–';
  $('confidence').textContent = '';
  document.querySelectorAll('#bars .bar').forEach((row) => {
    row.dataset.prob = '0';
    row.classList.remove('top');
    row.querySelector('.fill').style.width = '0';
    row.querySelector('.pct').textContent = '–';
  });
}

pad.addEventListener('pointerdown', (e) => {
  e.preventDefault();
  pad.setPointerCapture?.(e.pointerId);
  drawing = true;
  last = at(e);
  stroke(last, last);
  schedule();
});
pad.addEventListener('pointermove', (e) => {
  if (!drawing) return;
  const p = at(e);
  stroke(last, p);
  last = p;
  schedule();
});
// The last move already scheduled a prediction: releasing adds no ink.
for (const ev of ['pointerup', 'pointercancel']) pad.addEventListener(ev, () => { drawing = false; });
$('clear').addEventListener('click', clearPad);
$('again').addEventListener('click', () => { if (digits && lastInput) classify(lastInput); });

// ------------------------------------------------------------- any .holo ---
let other = null, otherInputs = null;

function rng(seed) { // mulberry32
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function f16bits(v) { // round-to-nearest for values in [-1, 1]
  const f = new Float32Array([v]), u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000, exp = ((u >>> 23) & 0xff) - 127 + 15, man = u & 0x7fffff;
  if (exp <= 0) return sign; // tiny -> signed zero
  return sign | (exp << 10) | Math.round(man / 8192);
}

/** Random inputs for every port; symbolic (or unknown) dimensions become 1. */
function randomInputs(ports, seed) {
  const r = rng(seed);
  return ports.map((p) => {
    const shape = (p.shape ?? [1]).map((d) => (typeof d === 'number' ? d : 1));
    const n = shape.reduce((a, b) => a * b, 1);
    let data;
    switch (p.dtype) {
      case 'float32': data = Float32Array.from({ length: n }, () => r() * 2 - 1); break;
      case 'float64': data = Float64Array.from({ length: n }, () => r() * 2 - 1); break;
      case 'float16': data = Uint16Array.from({ length: n }, () => f16bits(r() * 2 - 1)); break;
      case 'int8': data = Int8Array.from({ length: n }, () => Math.floor(r() * 2)); break;
      case 'int16': data = Int16Array.from({ length: n }, () => Math.floor(r() * 2)); break;
      case 'int32': data = Int32Array.from({ length: n }, () => Math.floor(r() * 2)); break;
      case 'uint8': data = Uint8Array.from({ length: n }, () => Math.floor(r() * 2)); break;
      case 'uint16': data = Uint16Array.from({ length: n }, () => Math.floor(r() * 2)); break;
      case 'uint32': data = Uint32Array.from({ length: n }, () => Math.floor(r() * 2)); break;
      case 'int64': data = BigInt64Array.from({ length: n }, () => BigInt(Math.floor(r() * 2))); break;
      case 'uint64': data = BigUint64Array.from({ length: n }, () => BigInt(Math.floor(r() * 2))); break;
      case 'bool': data = Uint8Array.from({ length: n }, () => (r() < 0.5 ? 1 : 0)); break;
      default: throw new Error(`input '${p.name}': no random generator for dtype ${p.dtype}`);
    }
    return { data, shape };
  });
}

const cell = (tr, text, cls = text.length <= 14 ? 'nowrap' : '') => { const td = document.createElement('td'); td.textContent = text; if (cls) td.className = cls; tr.append(td); };
const fmtVal = (v) => (typeof v === 'bigint' ? String(v) : Number.isInteger(v) ? String(v) : Number(v).toPrecision(5));

function showError(e) {
  const el = $('archive-error');
  el.hidden = !e;
  el.textContent = e ? errText(e) : '';
}

function runOther(fresh) {
  if (!other) return;
  if (fresh || !otherInputs) otherInputs = randomInputs(other.inputs, (Math.random() * 2 ** 31) | 0);
  const tb = $('ports').tBodies[0];
  [...tb.rows].forEach((row, i) => { if (i < other.inputs.length) row.cells[4].textContent = `[${otherInputs[i].shape.join(', ')}] random`; });
  const before = other.counters;
  const t0 = performance.now();
  let outs;
  try {
    outs = other.execute(otherInputs);
  } catch (e) {
    showError(e);
    return;
  }
  const ms = performance.now() - t0;
  const c = other.counters;
  showError(null);
  $('run-info').textContent = `execute ${fmtMs(ms)} · this run: ${c.dispatches - before.dispatches} dispatches, ${c.elided - before.elided} elided, ${c.memoHits - before.memoHits} memo hits · resident ${fmtBytes(other.residentBytes)}`;
  const ob = $('outputs').tBodies[0];
  ob.replaceChildren();
  outs.forEach((o, i) => {
    const tr = document.createElement('tr');
    cell(tr, other.outputs[i]?.name ?? String(i));
    cell(tr, o.dtype);
    cell(tr, `[${o.shape.join(', ')}]`);
    cell(tr, Array.from(o.data.slice(0, 8), fmtVal).join(' ') + (o.data.length > 8 ? ` … (${o.data.length})` : ''));
    cell(tr, o.label, 'mono');
    ob.append(tr);
  });
}

async function openArchive(bytes, name) {
  showError(null);
  if (other) { other.dispose(); other = null; }
  otherInputs = null;
  $('rerun').disabled = $('rerun-new').disabled = true;
  try {
    const t0 = performance.now();
    other = await load(bytes, { variant: digits?.backend });
    const ms = performance.now() - t0;
    $('archive').hidden = false;
    $('archive-info').textContent = `${name} · ${fmtBytes(bytes.length)} · ${other.archiveLabel} · ${other.kernelCount} kernels · variant ${other.backend} · loaded in ${fmtMs(ms)} · ${fmtBytes(other.residentBytes)} resident`;
    const tb = $('ports').tBodies[0];
    tb.replaceChildren();
    for (const [kind, ports] of [['input', other.inputs], ['output', other.outputs]]) {
      for (const p of ports) {
        const tr = document.createElement('tr');
        cell(tr, kind); cell(tr, p.name); cell(tr, p.dtype);
        cell(tr, p.shape ? `[${p.shape.join(', ')}]` : 'unknown rank');
        cell(tr, '');
        tb.append(tr);
      }
    }
    $('rerun').disabled = $('rerun-new').disabled = false;
    runOther(true);
  } catch (e) {
    $('archive').hidden = true;
    showError(e);
  }
}

async function openFile(file) {
  if (!file) return;
  try {
    await openArchive(new Uint8Array(await file.arrayBuffer()), file.name);
  } catch (e) {
    showError(e);
  }
}

const drop = $('drop');
$('file').addEventListener('change', (e) => openFile(e.target.files[0]));
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => { e.preventDefault(); drop.classList.remove('over'); openFile(e.dataTransfer.files[0]); });
drop.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') $('file').click(); });
$('use-digits').addEventListener('click', async () => {
  try { await openArchive(await fetchBytes(MODEL_URL), 'model/digits.holo'); } catch (e) { showError(e); }
});
$('rerun').addEventListener('click', () => runOther(false));
$('rerun-new').addEventListener('click', () => runOther(true));

// ------------------------------------------------------------------ boot ---
async function boot() {
  buildBars();
  showSeen(null);
  const status = $('status');
  try {
    const t0 = performance.now();
    const bytes = await fetchBytes(MODEL_URL);
    // ?variant=simd128 (or scalar, relaxed) picks a core module; default: the best this engine runs.
    const variant = new URLSearchParams(location.search).get('variant') || undefined;
    digits = await load(bytes, { memoryBudget: MEMORY_BUDGET, variant });
    const ms = performance.now() - t0;
    const f = features();
    $('variant').textContent = digits.backend;
    $('identity').textContent = digits.backendIdentity;
    $('budget').textContent = `${fmtBytes(MEMORY_BUDGET)} transient`;
    $('variant').dataset.variant = digits.backend;
    status.textContent = `ready · core module variant ${digits.backend} (engine: SIMD ${f.simd ? 'yes' : 'no'}, relaxed SIMD ${f.relaxedSimd ? 'yes' : 'no'}) · model/digits.holo ${fmtBytes(bytes.length)}, ${digits.kernelCount} kernels, loaded in ${fmtMs(ms)} · ${globalThis.crossOriginIsolated ? 'cross-origin isolated' : 'not isolated'}`;
    showCounters(digits.counters);
    document.body.dataset.ready = '1';
  } catch (e) {
    status.textContent = `could not load the digit model: ${errText(e)}`;
    status.classList.add('error');
    document.body.dataset.ready = 'error';
  }
}
boot();
