# workerd serve config.capnp  (files laid out as in the `modules` list:
# copy ../../index.js, ../../stores/*.js, ../../dist/hologram-simd128.wasm and
# your archives next to this file; tests/js/workerd.test.mjs does exactly that)
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .holoWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const holoWorker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "index.js", esModule = embed "index.js"),
    (name = "stores/memory.js", esModule = embed "stores/memory.js"),
    (name = "stores/label.js", esModule = embed "stores/label.js"),
    (name = "hologram-simd128.wasm", wasm = embed "hologram-simd128.wasm"),
    (name = "mlp.holo", data = embed "mlp.holo"),
    (name = "cone.holo", data = embed "cone.holo"),
  ],
  compatibilityDate = "2025-01-01",
);
