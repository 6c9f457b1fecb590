// Runs build/wasm/holo.wasm under node:wasi with the current directory
// preopened, forwarding arguments and the exit code.
import fs from 'node:fs';
import { WASI } from 'node:wasi';
process.removeAllListeners('warning');
const wasi = new WASI({ version: 'preview1', args: ['holo', ...process.argv.slice(2)], env: {}, preopens: { '.': '.' }, returnOnExit: true });
const mod = await WebAssembly.compile(fs.readFileSync(new URL('../build/wasm/holo.wasm', import.meta.url)));
const inst = await WebAssembly.instantiate(mod, wasi.getImportObject());
process.exitCode = wasi.start(inst);
