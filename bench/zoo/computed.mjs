// The race harnesses time computation, never a cache: every timed run must
// compute what the fresh session's first run computed. This is the one rule
// race.mjs and race-ab.mjs apply to a run's counter deltas.
//
// A graph without control flow visits the same nodes every run, so each run
// dispatches or elides exactly as many nodes as the first (an elision is the
// same content met twice inside one run, never a value left resident by an
// earlier run). A graph with If/Loop/Scan visits a data-dependent number of
// nodes (fasterrcnn's detection tail: 414 to 417 per input), so the count
// cannot be equal; what still proves no earlier run is answering is no memo
// hit and an elided share of the visited nodes no larger than the first
// run's (plus 2 points of slack for a branch that elides its own repeats).
import { readHolo } from '../../compiler/holo-reader.js';

/**
 * Whether the archive holds nested graphs (If/Loop/Scan the converter kept:
 * it folds the Ifs on constant conditions), so it visits a data-dependent
 * node count. Judged on the archive, not the ONNX model, for that reason.
 */
export function hasControlFlow(holoBytes) {
  return (readHolo(holoBytes).graphs ?? []).length > 0;
}

/**
 * A checker of one session's runs: call it with the counters before and after
 * each run; it returns null when the run computed everything, else why not.
 * The first call sets the reference.
 */
export function computedChecker({ kernelCount, controlFlow }) {
  let first = null;
  return (c0, c1) => {
    const d = c1.dispatches - c0.dispatches;
    const el = c1.elided - c0.elided;
    const memo = c1.memoHits - c0.memoHits;
    const execs = c1.executions - c0.executions;
    first ??= { d, el };
    const why = `dispatches ${d} (first ${first.d}), memoHits +${memo}, elided +${el} (first ${first.el})`;
    if (d === 0 || memo !== 0 || execs !== 1) return `a run did not compute everything: ${why}`;
    if (!controlFlow) {
      if (d > kernelCount || d + el !== first.d + first.el) return `a run did not compute everything: ${why}`;
      return null;
    }
    const share = el / (d + el), firstShare = first.el / (first.d + first.el);
    if (share > firstShare + 0.02) return `a run elided more than the first (control flow): ${why}`;
    return null;
  };
}
