// The app's module Web Worker: runs the same job off the page.
import { run } from './run.js';

self.onmessage = async (e) => {
  try {
    self.postMessage(await run(e.data));
  } catch (err) {
    self.postMessage({ ok: false, error: String((err && err.message) || err), code: err && err.code });
  }
};
