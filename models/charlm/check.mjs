// Checks the exported char-LM step graph against the PyTorch reference:
//   1. onnxruntime-node runs the ONNX step by step (token t at pos t, KV caches
//      fed back output -> input) over the prompt + greedy continuation and its
//      logits are compared with the full-sequence PyTorch logits of
//      reference.json; the greedy argmax must reproduce the continuation.
//   2. the same ONNX is converted with `holo convert` and run through the
//      hologram JS binding the same way; logits compared with the reference
//      and with onnxruntime.
//
//   node models/charlm/check.mjs            # charlm.onnx + reference.json
//   node models/charlm/check.mjs draft      # draft.onnx + draft.reference.json
//   options: --no-ort, --no-holo, --tol 1e-4, --variant scalar|simd128|relaxed (default: each)
import { readFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const args = process.argv.slice(2);
const valued = new Set(['--tol', '--variant']);
const name = args.find((a, i) => !a.startsWith('--') && !valued.has(args[i - 1])) ?? 'charlm';
const tolArg = args.indexOf('--tol');
const tol = tolArg >= 0 ? Number(args[tolArg + 1]) : 1e-4;
const onnxPath = join(here, `${name}.onnx`);
const ref = JSON.parse(readFileSync(join(here, name === 'charlm' ? 'reference.json' : `${name}.reference.json`), 'utf8'));
const { layers, heads, d, ctx } = ref.config;
const hd = d / heads;
const cacheShape = [1, heads, ctx, hd];
const cacheLen = heads * ctx * hd;
const ids = ref.greedy_ids;
const nSteps = ids.length - 1;
const nPrompt = ref.prompt_ids.length;

function compare(tag, logitsAt) {
  let maxRef = 0, argmaxOk = 0, argmaxN = 0;
  for (let t = 0; t < nSteps; t++) {
    const got = logitsAt[t], want = ref.logits[String(t)];
    for (let j = 0; j < 256; j++) maxRef = Math.max(maxRef, Math.abs(got[j] - want[j]));
    if (t >= nPrompt - 1) {
      let am = 0;
      for (let j = 1; j < 256; j++) if (got[j] > got[am]) am = j;
      argmaxN++;
      if (am === ids[t + 1]) argmaxOk++;
    }
  }
  const ok = maxRef <= tol && argmaxOk === argmaxN;
  console.log(`${tag}: ${nSteps} steps, max |logit - torch| = ${maxRef.toExponential(2)} (tol ${tol}), greedy ${argmaxOk}/${argmaxN} ${ok ? 'OK' : 'FAIL'}`);
  return ok;
}

// runs `stepFn(token, pos, caches) -> [logits, ...caches]` over the sequence
function generate(stepFn) {
  let caches = Array.from({ length: 2 * layers }, () => new Float32Array(cacheLen));
  const logitsAt = [];
  for (let t = 0; t < nSteps; t++) {
    const [logits, ...next] = stepFn(ids[t], t, caches);
    logitsAt.push(Array.from(logits));
    caches = next;
  }
  return logitsAt;
}

let allOk = true;
let ortLogits = null;

if (!args.includes('--no-ort')) {
  const ort = (await import('onnxruntime-node')).default;
  const sess = await ort.InferenceSession.create(onnxPath);
  // onnxruntime-node's run is async; drive the loop by hand
  let caches = Array.from({ length: 2 * layers }, () => new Float32Array(cacheLen));
  ortLogits = [];
  for (let t = 0; t < nSteps; t++) {
    const feeds = {
      token: new ort.Tensor('int64', BigInt64Array.from([BigInt(ids[t])]), [1, 1]),
      pos: new ort.Tensor('int64', BigInt64Array.from([BigInt(t)]), [1]),
    };
    for (let i = 0; i < layers; i++) {
      feeds[`k_cache_${i}`] = new ort.Tensor('float32', caches[2 * i], cacheShape);
      feeds[`v_cache_${i}`] = new ort.Tensor('float32', caches[2 * i + 1], cacheShape);
    }
    const out = await sess.run(feeds);
    ortLogits.push(Array.from(out.logits.data));
    caches = [];
    for (let i = 0; i < layers; i++) caches.push(out[`k_cache_${i}_out`].data, out[`v_cache_${i}_out`].data);
  }
  allOk = compare('onnxruntime', ortLogits) && allOk;
}

if (!args.includes('--no-holo')) {
  mkdirSync(join(root, 'build'), { recursive: true });
  const holoPath = join(root, 'build', `${name}.holo`);
  execFileSync(process.execPath, [join(root, 'bindings-js', 'bin', 'holo.js'), 'convert', onnxPath, '-o', holoPath], { stdio: ['ignore', 'ignore', 'inherit'] });
  const { load, VARIANTS } = await import('../../bindings-js/index.js');
  const holoBytes = readFileSync(holoPath);
  const varArg = args.indexOf('--variant');
  for (const variant of varArg >= 0 ? [args[varArg + 1]] : VARIANTS) {
    let session;
    try {
      session = await load(holoBytes, { variant });
    } catch (e) {
      console.log(`hologram (${variant}): skipped (${e.message})`);
      continue;
    }
    const inNames = session.inputs.map((p) => p.name);
    const outNames = session.outputs.map((p) => p.name);
    const wantIn = ['token', 'pos'], wantOut = ['logits'];
    for (let i = 0; i < layers; i++) { wantIn.push(`k_cache_${i}`, `v_cache_${i}`); wantOut.push(`k_cache_${i}_out`, `v_cache_${i}_out`); }
    if (JSON.stringify(inNames) !== JSON.stringify(wantIn) || JSON.stringify(outNames) !== JSON.stringify(wantOut))
      throw new Error(`port order: inputs ${inNames} outputs ${outNames}`);
    const holoLogits = generate((tok, pos, caches) => {
      const feeds = [
        { data: BigInt64Array.from([BigInt(tok)]), shape: [1, 1] },
        { data: BigInt64Array.from([BigInt(pos)]), shape: [1] },
        ...caches.map((c) => ({ data: c, shape: cacheShape })),
      ];
      return session.execute(feeds).map((o) => o.data);
    });
    allOk = compare(`hologram (${session.backend})`, holoLogits) && allOk;
    if (ortLogits) {
      let m = 0;
      for (let t = 0; t < nSteps; t++) for (let j = 0; j < 256; j++) m = Math.max(m, Math.abs(holoLogits[t][j] - ortLogits[t][j]));
      console.log(`hologram (${session.backend}) vs onnxruntime: max |diff| = ${m.toExponential(2)}`);
      if (m > tol) allOk = false;
    }
    // the runtime's own generation loop (docs/generation.md), where the core module has it
    if (typeof session.generate === 'function') {
      const gopts = { maxTokens: ids.length - nPrompt, sampler: { kind: 'greedy' }, model: { tokenInput: 'token', positionInput: 'pos', logitsOutput: 'logits' } };
      try {
        // keep every step's values resident so the repeat is answered from the memo
        // (the default 64 MiB retain cache holds fewer than the 66 steps' states)
        if (typeof session.setRetainBytes === 'function') session.retainBytes = Infinity;
        const g1 = session.generate(ref.prompt_ids, gopts);
        const same = JSON.stringify(g1.tokens) === JSON.stringify(ids.slice(nPrompt));
        const g2 = session.generate(ref.prompt_ids, gopts);
        console.log(`  session.generate greedy: ${same ? 'matches' : 'DIFFERS from'} the reference continuation (${g1.stats.steps} steps, ${g1.stats.dispatches} dispatches); again: ${g2.stats.dispatches} dispatches, ${g2.stats.memoHits} memo hits`);
        if (!same) allOk = false;
      } catch (e) {
        if (e.code === 'UNSUPPORTED' || /UNSUPPORTED/.test(String(e.code ?? e.message))) console.log(`  session.generate: skipped (${e.message})`);
        else { console.log(`  session.generate: FAIL (${e.message})`); allOk = false; }
      }
    }
    const c = session.counters;
    console.log(`  counters: executions ${c.executions}, dispatches ${c.dispatches}, memo hits ${c.memoHits}, elided ${c.elided}`);
    session.dispose();
  }
}

console.log(`prompt ${JSON.stringify(ref.prompt)} -> ${JSON.stringify(ref.continuation)}`);
if (!allOk) { console.log('FAIL'); process.exit(1); }
console.log('OK');
