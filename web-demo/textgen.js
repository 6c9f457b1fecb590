// Text-generation panel: the char-LM (web-demo/model/charlm.holo, `make demo-model`),
// byte tokenizer, driven one synchronous step (session.generator feed/sample) per
// setTimeout tick so the characters stream as they are produced (docs/generation.md).
import { load } from '/bindings-js/index.js';

const $ = (id) => document.getElementById(id);
const MAX_CTX = 128; // the model's KV cache length: prompt + generated must fit
let session = null, running = null;

async function init() {
  try {
    const r = await fetch(new URL('model/charlm.holo', import.meta.url));
    if (!r.ok) throw new Error(`model/charlm.holo: HTTP ${r.status} (run \`make demo-model\`)`);
    session = await load(new Uint8Array(await r.arrayBuffer()));
    $('tg-status').textContent = 'model loaded';
    $('tg-go').disabled = false;
  } catch (e) {
    $('tg-status').textContent = `error: ${e.code ? `${e.code}: ` : ''}${e.message}`;
  }
}

function generate() {
  if (!session || running) return;
  const prompt = Array.from(new TextEncoder().encode($('tg-prompt').value || '\n'));
  const temperature = Number($('tg-temp').value), topK = Number($('tg-topk').value) | 0;
  const seed = Math.max(0, Number($('tg-seed').value) | 0);
  const max = Math.min(Number($('tg-max').value) | 0, MAX_CTX - prompt.length);
  const out = $('tg-out'), status = $('tg-status');
  if (max <= 0) { status.textContent = `prompt too long (max ${MAX_CTX - 1} bytes)`; return; }
  const g = session.generator({ seed, sampler: temperature > 0 ? { temperature, topK } : { kind: 'greedy' }, model: { positionInput: 'pos' } });
  const job = { g, stop: false };
  running = job;
  $('tg-go').disabled = true; $('tg-stop').disabled = false;
  out.textContent = $('tg-prompt').value;
  out.dataset.generated = '0';
  let i = 0, t0 = 0;
  const dec = new TextDecoder('latin1');
  const finish = (msg) => {
    g.free(); running = null;
    $('tg-go').disabled = false; $('tg-stop').disabled = true;
    status.textContent = msg;
  };
  const prefill = () => {
    const p0 = performance.now();
    try { for (const t of prompt) g.feed(t); } catch (e) { finish(`error: ${e.message}`); return; }
    status.textContent = `prefill ${prompt.length} tokens in ${(performance.now() - p0).toFixed(1)} ms`;
    t0 = performance.now();
    setTimeout(tick, 0);
  };
  const tick = () => {
    if (job.stop || i >= max) {
      const s = (performance.now() - t0) / 1000;
      finish(`${i} tokens, ${(i / s).toFixed(1)} tokens/s`);
      return;
    }
    try {
      const t = g.sample();
      g.feed(t);
      out.textContent += dec.decode(Uint8Array.of(t));
      i++;
      out.dataset.generated = String(i);
      status.textContent = `${i} tokens, ${(i / ((performance.now() - t0) / 1000)).toFixed(1)} tokens/s`;
    } catch (e) { finish(`error: ${e.message}`); return; }
    setTimeout(tick, 0);
  };
  setTimeout(prefill, 0);
}

$('tg-go').addEventListener('click', generate);
$('tg-stop').addEventListener('click', () => { if (running) running.stop = true; });
init();
