// ONNX external data: a TensorProto whose bytes live in a side file
// (data_location = EXTERNAL, external_data = location/offset/length/checksum).
//
//   externalBytes(tp, what, nbytes, externalData) -> Uint8Array (nbytes long)
//   isExternal(tp) -> bool
//
// externalData is what the caller of convert() gives: a function
// (location, offset, length) => Uint8Array, or an object
// { [location]: Uint8Array }. The location is checked here, before either is
// asked, so a provider only ever sees a relative path inside the model's
// directory: a model must not name an arbitrary file of the host (an absolute
// path, a `..` climbing out, a drive letter). Every failure is an Error naming
// the tensor and the file. Nothing here touches a file system: the CLI's
// provider (bindings-js/bin/external-files.js) does.

/** Does this TensorProto keep its data outside the model? */
export const isExternal = (tp) => tp.dataLocation === 1;

const DECIMAL = /^[0-9]+$/;

/** external_data's key/value list -> { location, offset, length|null }; unknown keys are ignored (the spec allows them). */
function parseEntries(tp, what) {
  const seen = new Map();
  for (const e of tp.externalData ?? []) {
    const key = e.key ?? '';
    if (!['location', 'offset', 'length', 'checksum'].includes(key)) continue;
    // a key given twice has no one meaning: which offset would be the tensor's?
    if (seen.has(key)) throw new Error(`${what}: external_data gives '${key}' twice`);
    seen.set(key, e.value ?? '');
  }
  if (!seen.has('location') || seen.get('location') === '') throw new Error(`${what}: external data without a 'location' (the side file's relative path)`);
  const location = seen.get('location');
  const num = (key) => {
    if (!seen.has(key)) return null;
    const s = seen.get(key);
    const n = Number(s);
    if (!DECIMAL.test(s) || !Number.isSafeInteger(n)) throw new Error(`${what}: external data '${location}': ${key} '${s}' is not a non-negative integer`);
    return n;
  };
  return { location, offset: num('offset') ?? 0, length: num('length') };
}

/**
 * Refuses a location that could name a file outside the model's directory:
 * absolute (POSIX, Windows drive or UNC), any `..` component, a NUL byte.
 * Both separators count, since the model may be read on either system.
 */
export function checkLocation(location, what) {
  const bad = (why) => new Error(`${what}: external data location '${location}' refused: ${why} (it must be a relative path inside the model's directory)`);
  if (location.includes('\0')) return bad('it contains a NUL byte');
  if (/^[/\\]/.test(location)) return bad('it is an absolute path');
  if (/^[A-Za-z]:/.test(location)) return bad('it names a drive');
  const parts = location.split(/[/\\]/);
  if (parts.includes('..')) return bad("it has a '..' component");
  if (parts.every((p) => p === '' || p === '.')) return bad('it names no file');
  return null;
}

/** The bytes from an object provider { [location]: Uint8Array }, range-checked. */
function fromObject(map, location, offset, length, where) {
  if (!Object.hasOwn(map, location)) {
    const have = Object.keys(map);
    throw new Error(`${where}: externalData has no entry '${location}' (it has ${have.length ? have.map((k) => `'${k}'`).join(', ') : 'none'})`);
  }
  const file = map[location];
  if (!(file instanceof Uint8Array)) throw new Error(`${where}: externalData['${location}'] is not a Uint8Array`);
  if (offset + length > file.length) throw new Error(`${where}: bytes ${offset}..${offset + length} lie past the end of the file (${file.length} bytes)`);
  return file.subarray(offset, offset + length);
}

/** The bytes from a function provider, which must return exactly `length` bytes. */
function fromFunction(fn, location, offset, length, where) {
  let got;
  try {
    got = fn(location, offset, length);
  } catch (e) {
    throw new Error(`${where}: ${e?.message ?? String(e)}`, { cause: e });
  }
  if (!(got instanceof Uint8Array)) throw new Error(`${where}: the externalData function returned ${got === null ? 'null' : typeof got}, not a Uint8Array`);
  if (got.length !== length) throw new Error(`${where}: the externalData function returned ${got.length} bytes for bytes ${offset}..${offset + length} (is the range past the end of the file?)`);
  return got;
}

const HOW = "pass convert(bytes, { externalData }) with a function (location, offset, length) => Uint8Array or an object { [location]: Uint8Array }, or run `holo convert` on the model's path, which reads the files beside it";

/**
 * The `nbytes` bytes of an external tensor. The declared length must equal
 * the tensor's size (numel x dtype size) and is checked before any provider
 * is asked, so a bad length allocates nothing; an absent length means the
 * tensor's size (as onnxruntime reads it).
 */
export function externalBytes(tp, what, nbytes, externalData) {
  if (tp.rawData && tp.rawData.length) throw new Error(`${what}: both raw_data and external data (which is the tensor?)`);
  const { location, offset, length } = parseEntries(tp, what);
  const refusal = checkLocation(location, what);
  if (refusal) throw refusal;
  const where = `${what}: external data '${location}'`;
  if (length !== null && length !== nbytes) throw new Error(`${where}: length ${length} differs from the tensor's ${nbytes} bytes (its dims x dtype size)`);
  if (!Number.isSafeInteger(offset + nbytes)) throw new Error(`${where}: offset ${offset} + ${nbytes} bytes is past any file`);
  if (externalData === undefined || externalData === null) throw new Error(`${what}: the tensor's data is external, in '${location}', and no external data was given: ${HOW}`);
  if (typeof externalData === 'function') {
    // a fresh array is kept as the constant (a 2 GiB weight is not copied); a view is copied
    const got = fromFunction(externalData, location, offset, nbytes, where);
    return got.byteOffset === 0 && got.byteLength === got.buffer.byteLength ? got : new Uint8Array(got);
  }
  if (typeof externalData === 'object') return new Uint8Array(fromObject(externalData, location, offset, nbytes, where));
  throw new Error(`${what}: externalData must be a function or an object, not ${typeof externalData}`);
}
