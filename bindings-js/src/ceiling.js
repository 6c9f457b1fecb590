// The hard ceiling on a module instance's linear memory where the
// environment asks for one (environment.js): each session is allowed the
// heap bytes its load took (archive copy, tables, packed weights, memo) plus
// its transient budget, a quarter more for the heap's fragmentation, and
// SCRATCH for kernel scratch outside the budget. The heap refuses to grow
// past the sum (holo_heap_set_limit); the core then evicts cached dead
// values before an allocation fails, and a failure is a MEMORY error that
// leaves the session usable. A session with no budget (0) lifts the ceiling.
// Loads run without a limit: an archive's own bytes are the caller's choice.

const SCRATCH = 16 * 1024 * 1024;
const state = new WeakMap(); // Runtime -> { base, sessions: Map(handle -> { loadBytes, budget }) }

const of = (rt) => {
  let s = state.get(rt);
  if (!s) state.set(rt, (s = { base: rt.memoryBytes - rt.heapStats.grown, sessions: new Map() }));
  return s;
};

const enforced = (rt) => typeof rt.x.holo_heap_set_limit === 'function' && typeof rt.x.holo_heap_stat === 'function';

/** The ceiling in bytes of linear memory for rt's sessions, or null (none). */
export function ceilingOf(rt) {
  if (!enforced(rt)) return null;
  const s = of(rt);
  if (s.sessions.size === 0) return null;
  let heap = 0;
  for (const { loadBytes, budget, on } of s.sessions.values()) {
    if (!on || budget === 0) return null;
    heap += loadBytes + budget + Math.ceil(budget / 4) + SCRATCH;
  }
  return s.base + heap;
}

function apply(rt) {
  if (!enforced(rt) || rt.poisoned) return;
  const c = ceilingOf(rt);
  // never below what the heap already holds: a limit only stops growth
  rt.x.holo_heap_set_limit(c === null ? 0 : Math.max(c - of(rt).base, rt.heapStats.grown));
}

/** Before a load: lifts the limit; returns the heap's bytes in use. */
export function beginLoad(rt) {
  if (!enforced(rt)) return 0;
  of(rt);
  rt.x.holo_heap_set_limit(0);
  return rt.heapStats.used;
}

/** After a load (or a failed one: h null): records the session, sets the limit. */
export function admit(rt, h, usedBefore, budget, on) {
  if (!enforced(rt)) return;
  if (h) of(rt).sessions.set(h, { loadBytes: Math.max(0, rt.heapStats.used - usedBefore), budget, on });
  apply(rt);
}

/** The session's budget changed. */
export function rebudget(rt, h, budget) {
  const e = enforced(rt) && of(rt).sessions.get(h);
  if (!e) return;
  e.budget = budget;
  apply(rt);
}

/** The session was disposed. */
export function release(rt, h) {
  if (!enforced(rt) || !of(rt).sessions.delete(h)) return;
  apply(rt);
}
