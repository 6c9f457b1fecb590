// The web demo's static server: Node only, no dependencies, 127.0.0.1.
//
//   node web-demo/server.mjs            (PORT=8080 by default; `make demo`)
//
//   /                  web-demo/index.html (and web-demo/* beside it: app.js,
//                      style.css, model/digits.holo)
//   /bindings-js/...   the npm package as published: index.js and dist/*.wasm
//
// Every response carries Cross-Origin-Opener-Policy: same-origin and
// Cross-Origin-Embedder-Policy: require-corp (cross-origin isolation, so
// SharedArrayBuffer is available to builds that use threads).
// Imported, start({ port, host }) -> { server, url, close() }; port 0 picks a free one.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const MOUNTS = [['/bindings-js/', path.join(ROOT, 'bindings-js')], ['/', HERE]];
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.holo': 'application/octet-stream',
  '.onnx': 'application/octet-stream', '.png': 'image/png', '.svg': 'image/svg+xml', '.ts': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8',
};
const HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
};

/** The file a URL path names, or null (outside the mounts, hidden, or a traversal). */
export function resolvePath(urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  if (p.includes('\0') || p.split('/').some((s) => s === '..' || (s.startsWith('.') && s.length > 1))) return null;
  if (p.endsWith('/')) p += 'index.html';
  for (const [prefix, dir] of MOUNTS) {
    if (!p.startsWith(prefix)) continue;
    const file = path.resolve(dir, '.' + p.slice(prefix.length - 1));
    if (file !== dir && !file.startsWith(dir + path.sep)) return null;
    return file;
  }
  return null;
}

function handle(req, res) {
  const send = (status, body, type = 'text/plain; charset=utf-8', extra = {}) => {
    res.writeHead(status, { ...HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...extra });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n', undefined, { Allow: 'GET, HEAD' });
  const file = resolvePath(req.url || '/');
  if (!file) return send(404, 'not found\n');
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) {
      const hint = file.endsWith('.holo') ? ` (${path.relative(ROOT, file)} is built by \`make\`)` : '';
      return send(404, `not found${hint}\n`);
    }
    res.writeHead(200, { ...HEADERS, 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Content-Length': st.size });
    if (req.method === 'HEAD') return res.end();
    fs.createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });
}

export function start({ port = Number(process.env.PORT ?? 8080), host = '127.0.0.1' } = {}) {
  const server = http.createServer(handle);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: p } = server.address();
      const url = `http://${host}:${p}/`;
      resolve({ server, url, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }) });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const model = path.join(HERE, 'model', 'digits.holo');
  if (!fs.existsSync(model)) console.warn(`warning: ${path.relative(ROOT, model)} is missing; run \`make\` (the page's digit panel needs it)`);
  try {
    const { url } = await start();
    console.log(`hologram-exec web demo: ${url}  (Ctrl-C to stop)`);
  } catch (e) {
    console.error(`demo server: ${e.code === 'EADDRINUSE' ? `port ${process.env.PORT ?? 8080} is in use; try PORT=8081 make demo` : e.message}`);
    process.exit(1);
  }
}
