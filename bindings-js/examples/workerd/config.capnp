# workerd serve config.capnp  (files laid out as in the `modules` list:
# copy ../../index.js, ../../src/*.js, ../../dist/layout.js (into dist/),
# ../../stores/*.js, ../../dist/hologram-simd128.wasm and your archives next to
# this file; tests/js/workerd.test.mjs does exactly that and checks that the
# list names every module of the package)
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .holoWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const holoWorker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "index.js", esModule = embed "index.js"),
    (name = "src/args.js", esModule = embed "src/args.js"),
    (name = "src/builtin.js", esModule = embed "src/builtin.js"),
    (name = "src/ceiling.js", esModule = embed "src/ceiling.js"),
    (name = "src/environment.js", esModule = embed "src/environment.js"),
    (name = "src/errors.js", esModule = embed "src/errors.js"),
    (name = "src/generate.js", esModule = embed "src/generate.js"),
    (name = "src/generator.js", esModule = embed "src/generator.js"),
    (name = "src/generator-draws.js", esModule = embed "src/generator-draws.js"),
    (name = "src/token-domain.js", esModule = embed "src/token-domain.js"),
    (name = "src/sequences.js", esModule = embed "src/sequences.js"),
    (name = "src/source.js", esModule = embed "src/source.js"),
    (name = "src/handle.js", esModule = embed "src/handle.js"),
    (name = "src/host.js", esModule = embed "src/host.js"),
    (name = "src/init.js", esModule = embed "src/init.js"),
    (name = "src/layout-rows.js", esModule = embed "src/layout-rows.js"),
    (name = "src/layout.js", esModule = embed "src/layout.js"),
    (name = "src/prompt-cache.js", esModule = embed "src/prompt-cache.js"),
    (name = "src/refine.js", esModule = embed "src/refine.js"),
    (name = "src/runtime.js", esModule = embed "src/runtime.js"),
    (name = "src/session.js", esModule = embed "src/session.js"),
    (name = "src/tensors.js", esModule = embed "src/tensors.js"),
    (name = "src/threads.js", esModule = embed "src/threads.js"),
    (name = "src/variants.js", esModule = embed "src/variants.js"),
    (name = "dist/layout.js", esModule = embed "dist/layout.js"),
    (name = "stores/memory.js", esModule = embed "stores/memory.js"),
    (name = "stores/label.js", esModule = embed "stores/label.js"),
    (name = "stores/bounds.js", esModule = embed "stores/bounds.js"),
    (name = "hologram-simd128.wasm", wasm = embed "hologram-simd128.wasm"),
    (name = "mlp.holo", data = embed "mlp.holo"),
    (name = "cone.holo", data = embed "cone.holo"),
  ],
  compatibilityDate = "2025-01-01",
);
