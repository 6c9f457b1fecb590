// The library's one error type and the core's status names.

/** holo_status values, in order (runtime/include/hologram/types.h). */
const STATUS = ['OK', 'ARG', 'FORMAT', 'UNSUPPORTED', 'INPUT', 'MEMORY', 'BUDGET', 'STORE', 'KERNEL', 'STATE', 'LIMIT', 'IO'];

/** The code of a holo_status value. */
export const statusCode = (status) => STATUS[status] ?? 'UNKNOWN';
/** What a failed call that left no status reports: the allocator failed. */
export const MEMORY_STATUS = STATUS.indexOf('MEMORY');

/**
 * Every failure of the library is a HologramError with a stable `code`:
 * the core's statuses (ARG FORMAT UNSUPPORTED INPUT MEMORY BUDGET STORE KERNEL
 * STATE LIMIT IO) and the shim's own (DISPOSED TRAP ABI THREADS).
 */
export class HologramError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'HologramError';
    this.code = code;
  }
}
