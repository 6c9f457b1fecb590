// ONNX external data (compiler/onnx-external.js, issue 22): initializers and
// a Constant's value kept in side files, given to convert() as an object or a
// function, and read by `holo convert` from the files beside the model.
// Outputs are compared with onnxruntime-node loading the same model from disk
// (it resolves the side files by path), and the archive with the one
// converted from the same model with every tensor inside the file: same
// content, same bytes. Then every refusal, each naming the tensor and file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { onnx } from '../../compiler/onnx-reader.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, BOOL, G, rand } from './onnx-build.mjs';
import { ROOT } from './helpers.mjs';

const rt = await init();
const BIN = path.join(ROOT, 'bindings-js', 'bin', 'holo.js');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-external-'));
const MiB = 2 ** 20;

const f32 = (a) => new Uint8Array(Float32Array.from(a).buffer);
const i64 = (a) => new Uint8Array(BigInt64Array.from(a.map(BigInt)).buffer);
const entries = (o) => Object.entries(o).map(([key, value]) => ({ key, value: String(value) }));

/** A TensorProto whose data is external, per `ext` (location, offset, length, ... as key/value). */
const extTensor = (name, dataType, dims, ext) => onnx.TensorProto.create({ name, dataType, dims, dataLocation: 1, externalData: entries(ext) });
const rawTensor = (name, dataType, dims, bytes) => onnx.TensorProto.create({ name, dataType, dims, rawData: bytes });

const W = rand(12, 0.5), B = rand(3, 0.5), C = rand(4, 2);
// onnxruntime's shape inference cannot read an external Reshape shape (it
// asks for raw data), so the external int64 tensor is a Gather's indices
const IDX = [2, 0];

/**
 * x[2,4] @ W[4,3] + b[3] -> Gather columns s=[2,0] -> * c (a Constant node's
 * value). `tensors(name, dtype, dims, bytes)` makes each tensor proto.
 */
function model(tensors) {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [2, 4]);
  b.node('MatMul', ['x', 'W'], ['m']).node('Add', ['m', 'b'], ['a']).node('Gather', ['a', 's'], ['r'], { axis: 1 });
  b.node('Constant', [], ['c'], { value: { __t: tensors('c', FLOAT, [2, 2], f32(C)) } }).node('Mul', ['r', 'c'], ['y']);
  b.output('y', FLOAT, [2, 2]);
  b.inits.push(tensors('W', FLOAT, [4, 3], f32(W)), tensors('b', FLOAT, [3], f32(B)), tensors('s', INT64, [2], i64(IDX)));
  return b.bytes();
}

// The side files: W and b in weights.bin (b at 64, after padding, and without
// a length: the tensor's size), the indices s in sub/shape.bin with a checksum
// (ignored), the Constant's value alone in const.bin.
const weights = new Uint8Array(64 + 12);
weights.set(f32(W), 0);
weights.set(f32(B), 64);
const FILES = { 'weights.bin': weights, 'sub/shape.bin': i64(IDX), 'const.bin': f32(C) };
const EXT = {
  W: { location: 'weights.bin', offset: 0, length: 48 },
  b: { location: 'weights.bin', offset: 64 },
  s: { location: 'sub/shape.bin', offset: '0', length: 16, checksum: 'ignored' },
  c: { location: './const.bin' },
};
const externalModel = model((name, dt, dims) => extTensor(name, dt, dims, EXT[name]));
const inlineModel = model(rawTensor);

/** Writes model.onnx and its side files into a fresh directory. */
function writeModelDir(name, bytes, files) {
  const dir = path.join(TMP, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'model.onnx'), bytes);
  for (const [loc, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, loc)), { recursive: true });
    fs.writeFileSync(path.join(dir, loc), data);
  }
  return dir;
}
const DIR = writeModelDir('model', externalModel, FILES);
const byLocation = (loc) => (loc.startsWith('./') ? loc.slice(2) : loc);
const objectProvider = { ...FILES, './const.bin': FILES['const.bin'] };
/** The function provider a caller would write: pread from the model's directory. */
function readRange(location, offset, length) {
  const fd = fs.openSync(path.join(DIR, location), 'r');
  try {
    const out = new Uint8Array(length);
    const n = fs.readSync(fd, out, 0, length, offset);
    return out.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

const X = rand(8, 1);
function holoRun(holo) {
  const h = rt.load(holo);
  try {
    return h.run({ x: { data: X, shape: [2, 4] } }).y;
  } finally {
    h.dispose();
  }
}

test('external initializers and a Constant value: same bytes as the in-file model, outputs match onnxruntime loading from disk', async () => {
  const want = await (async () => {
    const s = await ort.InferenceSession.create(path.join(DIR, 'model.onnx'));
    const out = await s.run({ x: new ort.Tensor('float32', X, [2, 4]) });
    await s.release();
    return out.y;
  })();
  const inline = convert(inlineModel);
  const asObject = convert(externalModel, { externalData: objectProvider });
  const calls = [];
  const asFunction = convert(externalModel, { externalData: (loc, off, len) => { calls.push([loc, off, len]); return readRange(byLocation(loc), off, len); } });
  assert.equal(asObject.holo, inline.holo, 'object provider: the archive of the in-file model');
  assert.equal(asFunction.holo, inline.holo, 'function provider: the archive of the in-file model');
  // each tensor's range, asked once, with the tensor's size when length is absent
  assert.equal(calls.sort(), [['./const.bin', 0, 16], ['sub/shape.bin', 0, 16], ['weights.bin', 0, 48], ['weights.bin', 64, 12]]);
  assert.is(asObject.report.externalBytes, 48 + 12 + 16 + 16);
  assert.is(inline.report.externalBytes, 0);
  const got = holoRun(asObject.holo);
  assert.equal([...got.shape], [...want.dims].map(Number));
  let d = 0;
  for (let i = 0; i < want.data.length; i++) d = Math.max(d, Math.abs(got.data[i] - want.data[i]));
  assert.ok(d <= 1e-5, `max |holo - onnxruntime| = ${d}`);
  // a key the spec does not name is ignored, as onnx's checker does
  // (onnxruntime refuses the model: "model format error")
  const unknown = model((name, dt, dims) => extTensor(name, dt, dims, { ...EXT[name], 'x-unknown': 'ignored' }));
  assert.equal(convert(unknown, { externalData: objectProvider }).holo, inline.holo);
});

test("a subgraph's initializer (an If branch's) is read through the same provider", () => {
  const K = rand(6, 1);
  const build = (k) => {
    const then = new OnnxBuilder().node('Add', ['x', 'k'], ['y']).output('y', FLOAT, [2, 3]);
    then.inits.push(k);
    const els = new OnnxBuilder().node('Neg', ['x'], ['y']).output('y', FLOAT, [2, 3]);
    const b = new OnnxBuilder(13).input('x', FLOAT, [2, 3]).init('c', BOOL, [], [1]);
    b.node('If', ['c'], ['y'], { then_branch: G(then), else_branch: G(els) }).output('y', FLOAT, [2, 3]);
    return b.bytes();
  };
  const asked = [];
  const got = convert(build(extTensor('k', FLOAT, [2, 3], { location: 'branch.bin', offset: 4 })), { externalData: (loc, off, len) => { asked.push([loc, off, len]); const f = new Uint8Array(4 + 24); f.set(f32(K), 4); return f.slice(off, off + len); } });
  assert.equal(asked, [['branch.bin', 4, 24]]);
  assert.equal(got.holo, convert(build(rawTensor('k', FLOAT, [2, 3], f32(K)))).holo);
  assert.throws(() => convert(build(extTensor('k', FLOAT, [2, 3], { location: '../branch.bin' })), { externalData: () => new Uint8Array(24) }), /initializer 'k': external data location '\.\.\/branch\.bin' refused/);
});

/** x[3] + W[3] with W external per `ext`; convert with `externalData`. */
function convertW(ext, externalData, { dataLocation = 1 } = {}) {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [3]).node('Add', ['x', 'W'], ['y']).output('y', FLOAT, [3]);
  b.inits.push(onnx.TensorProto.create({ name: 'W', dataType: FLOAT, dims: [3], dataLocation, externalData: entries(ext) }));
  return convert(b.bytes(), { externalData });
}
const W12 = { 'w.bin': f32([1, 2, 3]) };
const refuses = (fn, re, what) => {
  try {
    fn();
  } catch (e) {
    assert.match(e.message, re, what);
    return;
  }
  assert.unreachable(`${what}: converted`);
};

test('refusals: each names the tensor and the file', () => {
  // the control: this tensor converts
  assert.ok(convertW({ location: 'w.bin', offset: 0, length: 12 }, W12).holo.length > 0);
  refuses(() => convertW({ location: 'w.bin' }, undefined), /initializer 'W': the tensor's data is external, in 'w.bin', and no external data was given: pass convert\(bytes, \{ externalData \}\)/, 'no externalData');
  refuses(() => convertW({ location: 'other.bin' }, W12), /initializer 'W': external data 'other.bin': externalData has no entry 'other.bin' \(it has 'w.bin'\)/, 'missing file (object)');
  refuses(() => convertW({ location: 'other.bin' }, (loc, o, l) => readRange(loc, o, l)), /initializer 'W': external data 'other.bin': ENOENT/, 'missing file (function)');
  refuses(() => convertW({ location: 'w.bin', offset: 4 }, W12), /initializer 'W': external data 'w.bin': bytes 4\.\.16 lie past the end of the file \(12 bytes\)/, 'range past the end (object)');
  refuses(() => convertW({ location: 'w.bin', offset: 4 }, () => new Uint8Array(8)), /initializer 'W': external data 'w.bin': the externalData function returned 8 bytes for bytes 4\.\.16/, 'range past the end (function)');
  refuses(() => convertW({ location: 'w.bin', length: 8 }, W12), /initializer 'W': external data 'w.bin': length 8 differs from the tensor's 12 bytes/, 'bad length');
  for (const loc of ['/etc/passwd', '\\etc\\passwd', 'C:\\w.bin', 'c:w.bin', '\\\\server\\share\\w.bin'])
    refuses(() => convertW({ location: loc }, { [loc]: f32([1, 2, 3]) }), /initializer 'W': external data location .* refused: it (is an absolute path|names a drive)/, `absolute path ${loc}`);
  for (const loc of ['../w.bin', 'sub/../../w.bin', 'sub/..', 'sub\\..\\..\\w.bin', '..'])
    refuses(() => convertW({ location: loc }, () => assert.unreachable(`the provider was asked for ${loc}`)), /initializer 'W': external data location .* refused: it has a '\.\.' component/, `.. path ${loc}`);
  refuses(() => convertW({ location: '.' }, W12), /refused: it names no file/, 'location .');
  refuses(() => convertW({ location: 'w\0.bin' }, W12), /refused: it contains a NUL byte/, 'NUL');
  refuses(() => convertW({ offset: 0, length: 12 }, W12), /initializer 'W': external data without a 'location'/, 'missing location');
  refuses(() => convertW({ location: '' }, W12), /initializer 'W': external data without a 'location'/, 'empty location');
  for (const off of ['-1', '1.5', '0x10', '', '1e3', '99999999999999999999'])
    refuses(() => convertW({ location: 'w.bin', offset: off }, W12), new RegExp(`initializer 'W': external data 'w.bin': offset '${off.replace('.', '\\.')}' is not a non-negative integer`), `offset '${off}'`);
  refuses(() => convertW({ location: 'w.bin', length: '-12' }, W12), /length '-12' is not a non-negative integer/, 'negative length');
  const twice = [{ key: 'location', value: 'w.bin' }, { key: 'offset', value: '0' }, { key: 'offset', value: '4' }];
  refuses(() => {
    const b = new OnnxBuilder(13);
    b.input('x', FLOAT, [3]).node('Add', ['x', 'W'], ['y']).output('y', FLOAT, [3]);
    b.inits.push(onnx.TensorProto.create({ name: 'W', dataType: FLOAT, dims: [3], dataLocation: 1, externalData: twice }));
    convert(b.bytes(), { externalData: W12 });
  }, /initializer 'W': external_data gives 'offset' twice/, 'a key twice');
  refuses(() => convertW({ location: 'w.bin' }, W12, { dataLocation: 0 }), /initializer 'W': external_data entries but data_location is not EXTERNAL/, 'entries without EXTERNAL');
  refuses(() => convertW({ location: 'w.bin' }, { 'w.bin': [1, 2, 3] }), /externalData\['w.bin'\] is not a Uint8Array/, 'object of arrays');
  refuses(() => convertW({ location: 'w.bin' }, () => null), /the externalData function returned null, not a Uint8Array/, 'function returning null');
  refuses(() => convertW({ location: 'w.bin' }, 'w.bin'), /externalData must be a function or an object, not string/, 'a string');
  // a Constant's value attribute: refused the same way, naming the node
  const b = new OnnxBuilder(13);
  b.node('Constant', [], ['y'], { value: { __t: extTensor('', FLOAT, [2], { location: 'k.bin' }) } }).output('y', FLOAT, [2]);
  refuses(() => convert(b.bytes()), /node 'constant_0' \(Constant\) attribute 'value': the tensor's data is external, in 'k.bin'/, 'Constant without externalData');
});

test('the fold budget counts the side files: a 3 MiB external weight folds as its in-file twin does', () => {
  // Tile x4 (12 MiB) then Neg (12 MiB): 24 MiB of folds, over 8 x a 300-byte
  // file + 16 MiB, within 8 x (the file + its 3 MiB side file) + 16 MiB
  const n = 3 * MiB / 4;
  const data = f32(Float32Array.from({ length: n }, (_, i) => (i % 97) - 48));
  const build = (w) => {
    const b = new OnnxBuilder(13);
    b.input('x', FLOAT, [4 * n]).node('Tile', ['W', 'r'], ['t']).node('Neg', ['t'], ['u']).node('Add', ['x', 'u'], ['y']).output('y', FLOAT, [4 * n]);
    b.inits.push(w, rawTensor('r', INT64, [1], i64([4])));
    return b.bytes();
  };
  const ext = build(extTensor('W', FLOAT, [n], { location: 'big.bin' }));
  assert.ok(ext.length < 400, `the graph file is ${ext.length} bytes`);
  const a = convert(ext, { externalData: { 'big.bin': data } });
  const inline = convert(build(rawTensor('W', FLOAT, [n], data)));
  assert.equal(a.report.folded.overBudget, {}, 'nothing left unfolded');
  assert.equal(a.report.folded, inline.report.folded);
  assert.ok(a.holo.length === inline.holo.length && Buffer.compare(a.holo, inline.holo) === 0, 'same archive');
});

const holo = (args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120000 });

test('holo convert reads the side files beside the model (ranges, also past 4 GiB into a sparse file)', () => {
  const out = path.join(TMP, 'cli.holo');
  const r = holo(['convert', path.join(DIR, 'model.onnx'), '-o', out]);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /external data: 92 bytes read from side files/);
  assert.equal(new Uint8Array(fs.readFileSync(out)), convert(inlineModel).holo);
  // W at 5 GiB into a sparse 5 GiB file: a whole-file read could not even
  // allocate it (node's 2 GiB buffer limit); the range read takes 48 bytes
  const far = 5 * 1024 * MiB;
  const dir = writeModelDir('sparse', model((name, dt, dims, bytes) => (name === 'W' ? extTensor(name, dt, dims, { location: 'huge.bin', offset: far, length: 48 }) : rawTensor(name, dt, dims, bytes))), {});
  const fd = fs.openSync(path.join(dir, 'huge.bin'), 'w');
  fs.ftruncateSync(fd, far + 48);
  fs.writeSync(fd, f32(W), 0, 48, far);
  fs.closeSync(fd);
  const r2 = holo(['convert', path.join(dir, 'model.onnx'), '-o', out]);
  assert.is(r2.status, 0, r2.stderr);
  assert.equal(new Uint8Array(fs.readFileSync(out)), convert(inlineModel).holo);
});

test('holo convert refusals: missing side file, range past the end, a link out of the directory, .. (exit 2)', () => {
  const out = path.join(TMP, 'refused.holo');
  const withW = (name, ext, files) => writeModelDir(name, model((n, dt, dims, bytes) => (n === 'W' ? extTensor(n, dt, dims, ext) : rawTensor(n, dt, dims, bytes))), files);
  const cases = [
    [withW('missing', { location: 'gone.bin' }, {}), /initializer 'W': external data 'gone\.bin': cannot open the side file .*gone\.bin: no such file or directory/],
    [withW('short', { location: 'w.bin', offset: 8 }, { 'w.bin': f32(W) }), /initializer 'W': external data 'w\.bin': bytes 8\.\.56 lie past the end of the file \(48 bytes\)/],
    [withW('dirent', { location: 'sub' }, { 'sub/x': f32(W) }), /initializer 'W': external data 'sub': cannot read the side file .*sub: is a directory/],
    [withW('dotdot', { location: '../model/weights.bin' }, {}), /initializer 'W': external data location '\.\.\/model\/weights\.bin' refused: it has a '\.\.' component/],
    [withW('absolute', { location: path.join(DIR, 'weights.bin') }, {}), /refused: it is an absolute path/],
  ];
  const link = withW('link', { location: 'link.bin' }, {});
  fs.symlinkSync(path.join(DIR, 'weights.bin'), path.join(link, 'link.bin'));
  cases.push([link, /initializer 'W': external data 'link\.bin': the side file .*link\.bin resolves to .*weights\.bin, outside the model's directory .*: refused/]);
  for (const [dir, re] of cases) {
    const r = holo(['convert', path.join(dir, 'model.onnx'), '-o', out]);
    assert.is(r.status, 2, `${dir}: exit ${r.status} ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^holo: ${path.join(dir, 'model.onnx').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `), dir);
    assert.match(r.stderr, re, dir);
    assert.not.ok(fs.existsSync(out), `${dir}: nothing written`);
  }
  // a link inside the directory is an ordinary file
  const inside = withW('inside', { location: 'alias.bin' }, { 'real.bin': f32(W) });
  fs.symlinkSync('real.bin', path.join(inside, 'alias.bin'));
  assert.is(holo(['convert', path.join(inside, 'model.onnx'), '-o', out]).status, 0);
});

test('holo convert --help tells about the side files', () => {
  const r = holo(['convert', '--help']);
  assert.is(r.status, 0);
  assert.match(r.stdout, /external data are read from their side files beside the model/);
});

test.after(() => fs.rmSync(TMP, { recursive: true, force: true }));
test.run();
