// The zoo race's timing loop, one for Node (bench/zoo/race.mjs) and the
// browser page (bench/zoo/browser.mjs), written for a noisy shared 2-core box:
//  - warm-up until both engines are steady: V8 first runs wasm as baseline
//    (Liftoff) code and tiers hot functions up in the background; on a loaded
//    box mobilenet_v3_small took ~8 runs (1117, 575, ... 104, 35 ms; steady
//    20-50 ms), and a 2-run warm-up once timed the baseline tier at 6x
//    ORT-web. Steady: the median of the last 3 runs within 1.5x of the
//    fastest so far, after >= 6 runs (>= 3 for a model whose runs add up to
//    2 s: tier-up finishes during its first run);
//  - the two engines alternate in ABBA order (pair i even: hologram first;
//    odd: ORT-web first), so whichever runs second in a pair (warm caches,
//    the other's pool still spinning) is not always the same engine; at
//    T > 1 threads the unit is a block of >= 40 ms per engine (>= 4 runs; 2
//    past 300 ms), its first run not counted below 100 ms (the pool's
//    wake-up), a 60 ms settle before each block so the other engine's pool
//    has parked (ORT-web's spins ~20-25 ms after a run);
//  - a fresh input set per pair (the caller's feeder), the same to both;
//  - the ratio is the median of the per-pair ratios (per-block medians at
//    T > 1): a load spike from another process hits both halves of a pair,
//    so it moves a pair's ratio less than either engine's median; its 95%
//    interval by order statistics says what the runs allow;
//  - a wall cap per model (warm-up + timed runs; loads not counted): the
//    warm-up gets at most half, the timed part stops at the cap once it has
//    3 pairs. A capped row says so (capped: true) and its interval is wider.
// holoRun(xs) -> ms (synchronous, it checks the counters itself; returns
// null when a run did not compute); webRun(xs) -> Promise<ms>.
export const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[s.length >> 1] : NaN; };

/** 95% distribution-free interval of the median of xs (ranks n/2 -+ 0.98 sqrt(n)). */
export function medianInterval(xs) {
  const s = [...xs].sort((x, y) => x - y), n = s.length;
  if (n < 3) return [s[0], s[n - 1]];
  const h = Math.ceil(0.98 * Math.sqrt(n));
  return [s[Math.max(0, Math.floor(n / 2) - h)], s[Math.min(n - 1, Math.ceil(n / 2) + h - 1)]];
}

export const steady = (ts) => {
  const sum = ts.reduce((a, b) => a + b, 0);
  return (ts.length >= 6 || (ts.length >= 3 && sum >= 2000)) && median(ts.slice(-3)) <= 1.5 * Math.min(...ts);
};

/**
 * { th, tw, ratios, warmup_runs, warmup_steady, capped, est } or { error }.
 * opts: threads, budgetMs (timed part >= 3 x budgetMs, >= 10 runs (5 past 300 ms) and
 * as many pairs at 1 thread, >= 5 pairs of blocks at T > 1), capMs.
 */
export async function race({ holoRun, webRun, next, threads = 1, budgetMs = 1000, capMs = 40000}) {
  const now = () => performance.now();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const t0 = now();
  const wh = [], ww = [];
  while (!(steady(wh) && steady(ww)) && wh.length < 60 && now() - t0 < Math.min(90000, capMs / 2)) {
    const xs = next();
    const h = holoRun(xs);
    if (h === null) return { error: 'a run did not compute everything (warm-up)' };
    wh.push(h);
    ww.push(await webRun(xs));
  }
  const est = median(wh.slice(-3));
  const minRuns = est > 300 ? 5 : 10;
  const minPairs = threads > 1 ? 5 : minRuns;
  let blk = 1, skip = 0;
  if (threads > 1) { blk = est > 1000 ? 1 : est > 300 ? 2 : Math.min(200, Math.max(4, Math.ceil(40 / Math.max(est, 0.01)))); skip = est > 100 ? 0 : 1; }
  const th = [], tw = [], ratios = [];
  const tStart = now();
  let capped = false;
  for (let i = 0; th.length < 300; i++) {
    const timeOk = now() - tStart >= 3 * budgetMs;
    if (timeOk && th.length >= minRuns && ratios.length >= minPairs) break;
    if (now() - t0 >= capMs && ratios.length >= 3) { capped = true; break; }
    const xs = Array.from({ length: blk }, () => next());
    const holoBlock = async () => {
      if (threads > 1) await sleep(60);
      const ts = [];
      for (const x of xs) { const t = holoRun(x); if (t === null) return null; ts.push(t); }
      return ts;
    };
    const webBlock = async () => {
      if (threads > 1) await sleep(60);
      const ts = [];
      for (const x of xs) ts.push(await webRun(x));
      return ts;
    };
    let hs, ws;
    if (i % 2 === 0) { hs = await holoBlock(); if (hs === null) return { error: 'a run did not compute everything' }; ws = await webBlock(); }
    else { ws = await webBlock(); hs = await holoBlock(); if (hs === null) return { error: 'a run did not compute everything' }; }
    const h = hs.slice(skip), w = ws.slice(skip);
    th.push(...h);
    tw.push(...w);
    ratios.push(median(h) / median(w));
  }
  return { th, tw, ratios, warmup_runs: wh.length, warmup_steady: steady(wh) && steady(ww), capped, est,
    wall_ms: now() - t0 };
}

/** The row fields race() results give, rounded. */
export function summarizeRace(r) {
  const [lo, hi] = medianInterval(r.ratios);
  return {
    holo_ms: +median(r.th).toFixed(3), ort_web_ms: +median(r.tw).toFixed(3),
    ratio: +median(r.ratios).toFixed(3), ratio_ci95: [+lo.toFixed(3), +hi.toFixed(3)],
    ratio_of_medians: +(median(r.th) / median(r.tw)).toFixed(3),
    runs: r.th.length, pairs: r.ratios.length, warmup_runs: r.warmup_runs, warmup_steady: r.warmup_steady,
    capped: r.capped, race_s: +(r.wall_ms / 1000).toFixed(1),
  };
}
