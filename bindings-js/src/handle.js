// A session's internals as its modules share them (session.js creates the
// handle; generator.js and prompt-cache.js receive it). Never exported from
// the package: the public object is the Session.
//   h = { rt, w (0 once disposed), s, arch, err, store, budget, retain, owned, pcache }
import { HologramError } from './errors.js';

/** The handle's Runtime, or DISPOSED / TRAP when the session cannot be used. */
export function live(h) {
  if (!h.w) throw new HologramError('DISPOSED', 'the session is disposed');
  const rt = h.rt;
  if (rt.poisoned) throw new HologramError('TRAP', `the session is unusable after a trap in its module instance (${rt.poisoned}); load the archive again`);
  return rt;
}

/** Runs fn with the session's warm store attached to its Runtime (the core's store reads and writes). */
export function withStore(h, fn) {
  const rt = h.rt;
  rt.store = h.store;
  rt.storeError = null;
  try {
    return fn();
  } finally {
    rt.store = null;
  }
}
