/* wasi-libc has no <setjmp.h> (no setjmp without wasm exception handling);
 * the suites include it for real cmocka's sake only. cmocka-wasi.h needs
 * none: a failed assertion exits the process (docs/decisions.md). */
