// Loaded with node --require: points Jazzer.js at the patched copy of its
// addon (patch-addon.mjs) so node_modules stays as npm ci left it.
'use strict';
const path = require('node:path');
const patched = process.env.HOLO_JAZZER_ADDON;
if (patched) {
  const dlopen = process.dlopen;
  process.dlopen = function (module, filename, ...rest) {
    if (path.basename(filename) === `fuzzer-${process.platform}-${process.arch}.node`)
      filename = patched;
    return dlopen.call(this, module, filename, ...rest);
  };
}
