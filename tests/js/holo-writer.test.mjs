// Writer: determinism, §6 layout, dedup, digests, validation errors; builder.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { buildVectors } from '../vectors/make-vectors.mjs';
import { writeHolo, constantDigest, SECTION_ORDER } from '../../compiler/holo-writer.js';
import { readHolo } from '../../compiler/holo-reader.js';
import { GraphBuilder, inferAttr, DT } from '../../compiler/graph.js';

const { good } = buildVectors();
const written = good.filter((v) => v.fromWriter);
const byName = Object.fromEntries(good.map((v) => [v.name, v]));
const bytesEq = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

function sections(bytes) {
  const b = Buffer.from(bytes);
  const n = b.readUInt32LE(12);
  return Array.from({ length: n }, (_, i) => {
    const p = 32 + 24 * i;
    return { id: b.toString('latin1', p, p + 4), flags: b.readUInt32LE(p + 4), off: Number(b.readBigUInt64LE(p + 8)), len: Number(b.readBigUInt64LE(p + 16)) };
  });
}
const sec = (bytes, id) => sections(bytes).find((s) => s.id === id);

test('determinism: same graph twice, and a JSON round trip of the graph, give the same bytes', () => {
  for (const v of written) {
    const a = writeHolo(v.graph), b = writeHolo(v.graph);
    assert.ok(bytesEq(a, b), v.name);
    assert.ok(bytesEq(a, writeHolo(JSON.parse(JSON.stringify(v.graph)))), v.name);
    assert.ok(bytesEq(a, writeHolo(readHolo(a))), `${v.name}: read then write`);
  }
});

test('layout: header, section order, alignment, zero gaps, file_size (§1, §2, §6)', () => {
  for (const v of written) {
    const b = Buffer.from(v.bytes);
    assert.equal([...b.subarray(0, 8)], [0x89, 0x48, 0x4f, 0x4c, 0x4f, 0x0d, 0x0a, 0x1a]);
    assert.is(b.readUInt16LE(8), 1);
    assert.is(b.readUInt16LE(10), v.graph.graphs?.length ? 1 : 0, `${v.name} minor`);
    assert.is(Number(b.readBigUInt64LE(16)), b.length, `${v.name} file_size`);
    assert.is(b.readBigUInt64LE(24), 0n);
    const s = sections(b);
    const ids = s.map((x) => x.id);
    assert.equal(ids, SECTION_ORDER.filter((id) => ids.includes(id)), `${v.name} order`);
    for (const id of ['STRS', 'VALS', 'NODE', 'IOIX', 'PORT']) assert.ok(ids.includes(id), `${v.name} has ${id}`);
    let pos = 32 + 24 * s.length;
    for (const x of s) {
      const a = x.id === 'DATA' ? 64 : 8;
      assert.is(x.flags, 1, `${v.name} ${x.id} REQUIRED`);
      assert.is(x.off, Math.ceil(pos / a) * a, `${v.name} ${x.id} offset`);
      assert.ok(b.subarray(pos, x.off).every((z) => z === 0), `${v.name} gap before ${x.id} is zero`);
      pos = x.off + x.len;
    }
    assert.is(pos, b.length, `${v.name}: file ends at the last section`);
  }
});

test('layout: optional sections omitted when empty', () => {
  const has = (name, id) => sections(byName[name].bytes).some((s) => s.id === id);
  assert.not.ok(has('no-consts', 'CONS')); assert.not.ok(has('no-consts', 'DATA'));
  assert.not.ok(has('tiny-mlp', 'SYMS')); assert.not.ok(has('tiny-mlp', 'ATTR')); assert.not.ok(has('tiny-mlp', 'META'));
  assert.ok(has('tiny-mlp', 'CONS')); assert.ok(has('symbolic', 'SYMS')); assert.ok(has('attrs', 'ATTR')); assert.ok(has('meta', 'META'));
  const nn = byName['no-nodes'].bytes;
  assert.is(Buffer.from(nn).readUInt32LE(sec(nn, 'NODE').off), 0);
  assert.is(sec(nn, 'IOIX').len, 4);
});

test('STRS: each distinct string once, in the §6 walk order, empty strings as (0, 0)', () => {
  for (const v of written) {
    const g = v.graph;
    const walk = [];
    for (const [k, val] of g.meta) walk.push(k, val);
    walk.push(...g.symbols);
    for (const val of g.values) walk.push(val.name);
    for (const n of g.nodes) {
      walk.push(n.op, n.name);
      for (const a of n.attrs) {
        walk.push(a.name);
        let p;
        if (a.type === 'int') { p = Buffer.alloc(8); p.writeBigInt64LE(BigInt(a.value)); }
        else if (a.type === 'float') { p = Buffer.alloc(4); p.writeFloatLE(a.value); }
        else if (a.type === 'ints') { p = Buffer.alloc(8 * a.value.length); a.value.forEach((x, i) => p.writeBigInt64LE(BigInt(x), 8 * i)); }
        else if (a.type === 'floats') { p = Buffer.alloc(4 * a.value.length); a.value.forEach((x, i) => p.writeFloatLE(x, 4 * i)); }
        else p = Buffer.from(a.value, 'utf8');
        walk.push(p);
      }
    }
    for (const gr of g.graphs ?? []) walk.push(gr.name);
    const seen = new Set(), parts = [];
    for (const w of walk) {
      const buf = Buffer.isBuffer(w) ? w : Buffer.from(w, 'utf8');
      const key = buf.toString('latin1');
      if (buf.length && !seen.has(key)) { seen.add(key); parts.push(buf); }
    }
    const s = sec(v.bytes, 'STRS');
    assert.ok(bytesEq(Buffer.from(v.bytes).subarray(s.off, s.off + s.len), Buffer.concat(parts)), v.name);
  }
  // empty attribute payloads and the empty string point at (0, 0)
  const b = Buffer.from(byName.attrs.bytes), A = sec(b, 'ATTR');
  const n = b.readUInt32LE(A.off);
  let empties = 0;
  for (let i = 0; i < n; i++) {
    const p = A.off + 4 + 24 * i;
    if (b.readUInt32LE(p + 20) === 0) { empties++; assert.is(b.readUInt32LE(p + 16), 0); }
  }
  assert.is(empties, 3);
});

test('NODE first_io / first_attr are running totals; IOIX holds inputs then outputs', () => {
  const b = Buffer.from(byName.attrs.bytes);
  const N = sec(b, 'NODE');
  assert.is(b.readUInt32LE(N.off + 4 + 16), 0);
  assert.is(b.readUInt32LE(N.off + 4 + 24), 0);
  assert.is(b.readUInt32LE(N.off + 4 + 32 + 16), 2);
  assert.is(b.readUInt32LE(N.off + 4 + 32 + 24), 16);
  const o = Buffer.from(byName['optional-input'].bytes), I = sec(o, 'IOIX');
  const ids = Array.from({ length: o.readUInt32LE(I.off) }, (_, k) => o.readUInt32LE(I.off + 4 + 4 * k));
  assert.equal(ids, [0, 1, 0xffffffff, 3, 3, 0xffffffff, 2, 4]);
});

test('constants: 64-aligned in DATA, identical digests share one copy', () => {
  for (const v of written) {
    const b = Buffer.from(v.bytes), C = sec(b, 'CONS'), D = sec(b, 'DATA');
    if (!C) continue;
    assert.is(D.off % 64, 0);
    const n = b.readUInt32LE(C.off);
    let end = 0;
    for (let i = 0; i < n; i++) {
      const off = Number(b.readBigUInt64LE(C.off + 4 + 48 * i)), len = Number(b.readBigUInt64LE(C.off + 12 + 48 * i));
      assert.is(off % 64, 0, `${v.name} constant ${i}`);
      end = Math.max(end, off + len);
    }
    assert.is(D.len, end, `${v.name}: DATA ends at the last constant byte`);
  }
  const b = Buffer.from(byName.dedup.bytes), C = sec(b, 'CONS');
  const offs = Array.from({ length: b.readUInt32LE(C.off) }, (_, i) => Number(b.readBigUInt64LE(C.off + 4 + 48 * i)));
  assert.equal(offs, [0, 0, 64, 128]); // c1, c2 (shared with c1), c3 (same bytes, other shape), s
  assert.is(sec(b, 'DATA').len, 128 + 8);
  // zero-length constants: no bytes, offset is the aligned cursor
  const d = Buffer.from(byName.dtypes.bytes), DC = sec(d, 'CONS');
  const n = d.readUInt32LE(DC.off);
  for (let i = 0; i < n; i++) assert.is(Number(d.readBigUInt64LE(DC.off + 4 + 48 * i)) % 64, 0);
});

test('digests: CONS digest = SHA-256 of the §5 content preimage (independent computation)', () => {
  for (const v of written) {
    const b = Buffer.from(v.bytes), C = sec(b, 'CONS');
    let k = 0;
    for (const val of v.graph.values) {
      if (val.kind !== 'const') continue;
      const head = Buffer.alloc(8 + 8 * val.shape.length);
      head.writeUInt32LE(val.dtype, 0);
      head.writeUInt32LE(val.shape.length, 4);
      val.shape.forEach((d, i) => head.writeBigInt64LE(BigInt(d), 8 + 8 * i));
      const want = createHash('sha256').update(Buffer.concat([Buffer.from('holo/content/v1\0', 'latin1'), head, Buffer.from(val.data, 'hex')])).digest('hex');
      assert.is(constantDigest(val.dtype, val.shape, Buffer.from(val.data, 'hex')), want);
      assert.is(constantDigest(val.dtype, val.shape, val.data), want);
      assert.is(b.toString('hex', C.off + 4 + 48 * k + 16, C.off + 4 + 48 * k + 48), want, `${v.name} ${val.name}`);
      k++;
    }
  }
  // a known answer: f32 scalar 1.0
  const pre = Buffer.concat([Buffer.from('holo/content/v1\0', 'latin1'), Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]), Buffer.from([0, 0, 0x80, 0x3f])]);
  assert.is(constantDigest(1, [], Float32Array.from([1])), createHash('sha256').update(pre).digest('hex'));
});

// ---- writer validation
function base() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, ['batch', 2]);
  const w = g.constant('w', DT.f32, [2], Float32Array.from([1, 2]));
  const [y] = g.node('Add', [x, w], { name: 'add', outputs: [{ name: 'y', shape: [2] }] });
  g.output(y);
  return g.toJSON();
}
const cases = [
  ['unknown dtype', (g) => { g.values[0].dtype = 8; }, /value 0 \("x"\).*dtype 8/],
  ['rank > 8', (g) => { g.values[0].shape = [1, 1, 1, 1, 1, 1, 1, 1, 1]; }, /"x".*rank 9/],
  ['negative dim', (g) => { g.values[0].shape = [-1, 2]; }, /"x".*dim 0 = -1/],
  ['unknown symbol', (g) => { g.values[0].shape = ['seq', 2]; }, /"x".*symbol "seq"/],
  ['symbolic constant', (g) => { g.values[1].shape = ['batch']; g.values[1].data = ''; }, /"w".*concrete/],
  ['null shape on input', (g) => { g.values[0].shape = null; }, /"x".*unknown rank/],
  ['constant length', (g) => { g.values[1].data = '0000803f'; }, /"w".*constant length 4 != numel 2/],
  ['bad hex', (g) => { g.values[1].data = 'zz'; }, /"w".*hex/],
  ['unknown kind', (g) => { g.values[0].kind = 'toString'; }, /"x".*kind/],
  ['duplicate symbol', (g) => { g.symbols.push('batch'); }, /symbol "batch" is listed twice/],
  ['input not a port', (g) => { g.inputs = []; }, /"x".*not an input port/],
  ['input port twice', (g) => { g.inputs = [0, 0]; }, /inputs\[1\].*twice/],
  ['input port of kind const', (g) => { g.inputs = [0, 1]; }, /inputs\[1\].*"w".*not of kind input/],
  ['value id out of range', (g) => { g.nodes[0].inputs[0] = 7; }, /node 0 \(Add "add"\) input 0: value id 7 out of range/],
  ['output port out of range', (g) => { g.outputs = [3]; }, /outputs\[0\]: value id 3/],
  ['output port twice', (g) => { g.outputs = [2, 2]; }, /outputs\[1\].*twice/],
  ['node output of kind input', (g) => { g.nodes[0].outputs = [0]; }, /node 0.*output 0.*"x".*kind input/],
  ['n_out 0', (g) => { g.nodes[0].outputs = []; }, /node 0.*n_out 0/],
  ['n_in > 64', (g) => { g.nodes[0].inputs = Array(65).fill(0); }, /node 0.*n_in 65/],
  ['empty op', (g) => { g.nodes[0].op = ''; }, /node 0: op/],
  ['value never produced', (g) => { g.values.push({ name: 'z', dtype: 1, kind: 'node', shape: null }); }, /value 3 \("z"\).*no node produces it/],
  ['not topological', (g) => {
    g.values.push({ name: 'z', dtype: 1, kind: 'node', shape: null });
    g.nodes.unshift({ op: 'Relu', name: 'r', inputs: [2], outputs: [3], attrs: [] });
  }, /node 0 \(Relu "r"\) input 0: value 2 \("y"\) is not produced by an earlier node.*topolog/],
  ['produced twice', (g) => { g.nodes.push({ op: 'Relu', name: 'r', inputs: [0], outputs: [2], attrs: [] }); }, /node 1.*"y".*produced twice/],
  ['unknown attr type', (g) => { g.nodes[0].attrs = [{ name: 'a', type: 'tensor', value: 1 }]; }, /node 0.*attribute 0 "a".*unknown attribute type "tensor"/],
  ['int attr not integer', (g) => { g.nodes[0].attrs = [{ name: 'a', type: 'int', value: 1.5 }]; }, /attribute 0 "a".*1.5 is not an integer/],
  ['int attr out of i64', (g) => { g.nodes[0].attrs = [{ name: 'a', type: 'ints', value: ['9223372036854775808'] }]; }, /"a" element 0.*int64 range/],
  ['float attr not a number', (g) => { g.nodes[0].attrs = [{ name: 'a', type: 'floats', value: [1, 'x'] }]; }, /"a".*element 1 "x" is not a number/],
  ['string attr not a string', (g) => { g.nodes[0].attrs = [{ name: 'a', type: 'string', value: 3 }]; }, /"a".*string/],
  ['duplicate attr', (g) => { g.nodes[0].attrs = [{ name: 'a', type: 'int', value: 1 }, { name: 'a', type: 'int', value: 2 }]; }, /attribute 1 "a".*twice/],
  ['too many ports', (g) => { g.outputs = Array(4097).fill(0); }, /4097 output ports/],
];
for (const [what, mutate, re] of cases) {
  test(`writer rejects: ${what}`, () => {
    const g = base();
    writeHolo(g); // the base is fine
    mutate(g);
    assert.throws(() => writeHolo(g), (e) => re.test(e.message) || (console.error(e.message), false));
  });
}

test('writer accepts ints as number, bigint or decimal string, all giving the same bytes', () => {
  const mk = (v) => { const g = base(); g.nodes[0].attrs = [{ name: 'a', type: 'ints', value: v }]; return writeHolo(g); };
  const a = mk([5, -(2 ** 53)]), b = mk([5n, -(2n ** 53n)]), c = mk(['5', '-9007199254740992']);
  assert.ok(bytesEq(a, b)); assert.ok(bytesEq(a, c));
});

test('builder: attribute type inference and explicit types', () => {
  assert.equal(inferAttr('a', 3), { name: 'a', type: 'int', value: 3 });
  assert.equal(inferAttr('a', 3n), { name: 'a', type: 'int', value: 3n });
  assert.equal(inferAttr('a', 0.5), { name: 'a', type: 'float', value: 0.5 });
  assert.equal(inferAttr('a', 'x'), { name: 'a', type: 'string', value: 'x' });
  assert.equal(inferAttr('a', [1, 2]), { name: 'a', type: 'ints', value: [1, 2] });
  assert.equal(inferAttr('a', []), { name: 'a', type: 'ints', value: [] });
  assert.equal(inferAttr('a', [1, 2.5]), { name: 'a', type: 'floats', value: [1, 2.5] });
  assert.equal(inferAttr('a', { type: 'float', value: 1 }), { name: 'a', type: 'float', value: 1 });
  assert.equal(inferAttr('a', { type: 'floats', value: [] }), { name: 'a', type: 'floats', value: [] });
});

test('builder: the documented example produces the documented JSON shape', () => {
  const g = new GraphBuilder();
  const x = g.input('x', 1, ['batch', 4]);
  const w = g.constant('w', 1, [4, 3], new Float32Array(12));
  const [y] = g.node('MatMul', [x, w], { name: 'mm0', attrs: { alpha: 1.5, perm: { type: 'ints', value: [1, 0] } }, outputs: 1 });
  g.output(y);
  g.meta('producer', 'hologram-compiler');
  const j = g.toJSON();
  assert.equal(j.symbols, ['batch']);
  assert.equal(j.meta, [['producer', 'hologram-compiler']]);
  assert.equal(j.values[2], { name: 'mm0:out', dtype: 1, kind: 'node', shape: null });
  assert.equal(j.nodes[0].inputs, [0, 1]);
  assert.equal(j.nodes[0].attrs, [{ name: 'alpha', type: 'float', value: 1.5 }, { name: 'perm', type: 'ints', value: [1, 0] }]);
  assert.is(j.values[1].data, '00'.repeat(48));
  const back = readHolo(writeHolo(j));
  assert.is(back.values[1].digest, constantDigest(1, [4, 3], new Float32Array(12)));
});

test.run();
