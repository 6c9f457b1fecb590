// The converter fuzz oracle (issue 16; docs/fuzzing.md, "The converter").
//
//   checkConvert(bytes) -> { ok: true, outcome: 'archive' | 'refused', message? }
//                        | { ok: false, finding: string }
//
// Every input must end in a converted archive that the runtime loads, or in a
// refusal: a plain Error (the converter's refusal type: compiler/convert.js
// throws `Error` naming the op, value or field) or a HologramError from the
// runtime, with a non-empty message that is not an internal assertion.
// Anything else is a finding: another error class (TypeError, RangeError,
// ...), a thrown non-Error, an 'internal:' message, an empty message, or an
// archive that does not load for a reason other than this host's memory
// (MEMORY / BUDGET, which convert() does not hold against a graph either).
// The time and memory bounds are enforced by the callers (replay.mjs: a
// worker per input stream with resourceLimits and a watchdog;
// fuzz_convert.mjs: Jazzer --timeout and -rss_limit_mb).
import { convert, getDefaultRuntime } from '../../../compiler/convert.js';

export const TIME_LIMIT_MS = 10_000;
export const HEAP_LIMIT_MB = 512;

/** null when `e` is an acceptable refusal, else a one-line description of the finding. */
export function classifyError(e) {
  if (!(e instanceof Error)) return `threw a non-Error: ${String(e).slice(0, 200)}`;
  const plain = Object.getPrototypeOf(e) === Error.prototype;
  if (!plain && e.name !== 'HologramError') return `${e.name}: ${e.message}`;
  if (typeof e.message !== 'string' || e.message.trim() === '') return `${e.name} with an empty message`;
  if (/^internal\b/.test(e.message)) return `internal error: ${e.message}`;
  return null;
}

export function checkConvert(bytes) {
  let res;
  try {
    res = convert(bytes);
  } catch (e) {
    const finding = classifyError(e);
    if (finding) return { ok: false, finding, stack: e?.stack };
    return { ok: true, outcome: 'refused', message: e.message };
  }
  if (!(res?.holo instanceof Uint8Array) || res.holo.length === 0) return { ok: false, finding: 'convert() returned no archive bytes' };
  const rt = getDefaultRuntime();
  if (rt) {
    try {
      // under the bounds of convert()'s own trial load (its memory budget, and
      // no cone when the cone's values add up past it): a tiny archive may ask
      // for gigabytes at load, and that is the host's memory, not a finding
      const t = res.report?.trialLoad;
      rt.load(res.holo, t ? { memoryBudget: t.memoryBudget, warmCone: t.warmCone } : {}).dispose();
    } catch (e) {
      // as in convert()'s own trial load: this host's memory is not the graph's fault
      if (e?.name === 'HologramError' && (e.code === 'MEMORY' || e.code === 'BUDGET')) return { ok: true, outcome: 'archive', message: `loads only with more memory: ${e.message}` };
      return { ok: false, finding: `the converted archive does not load: ${e?.name}: ${e?.message}`, stack: e?.stack };
    }
  }
  return { ok: true, outcome: 'archive' };
}
