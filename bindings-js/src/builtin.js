// Node built-ins (node:fs/promises, node:crypto, node:worker_threads, node:url)
// for the code paths that only run under Node, Deno or Bun, reached so that
// bundlers leave them alone (docs/decisions.md 37): process.getBuiltinModule
// where the runtime has it (Node >= 20.16, Deno, Bun), else a dynamic import
// of a specifier no bundler follows. No `import 'node:…'` literal appears in
// code a browser loads, so no bundler tries to resolve, polyfill or warn.
// Never called in browsers or workerd (callers check `isNode` first).

/** Node, or a runtime that presents itself as Node (Deno, Bun). */
export const isNode = typeof globalThis.process?.versions?.node === 'string';

/** The Node built-in module `name` ('node:crypto', ...). */
export async function builtin(name) {
  const get = globalThis.process?.getBuiltinModule;
  const m = typeof get === 'function' ? get.call(globalThis.process, name) : undefined;
  return m ?? import(/* webpackIgnore: true */ /* @vite-ignore */ name);
}
