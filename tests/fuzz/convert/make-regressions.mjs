// Writes the converter's fuzz findings (issue 16) as minimal ONNX files into
// tests/fuzz/regressions/convert/, with expect.json: the refusal (a regex on
// the message) or 'archive' each must get. replay.mjs checks both. Each
// model is the smallest form of a finding of the campaign or of the hostile
// set (docs/fuzzing.md, "The converter"); run again after adding one.
//   node tests/fuzz/convert/make-regressions.mjs
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import onnxProto from 'onnx-proto';
import { model, vi } from './models.mjs';

const AT = onnxProto.onnx.AttributeProto.AttributeType;
const dir = join(dirname(fileURLToPath(import.meta.url)), '../regressions/convert');
mkdirSync(dir, { recursive: true });
const expect = {};
const reg = (name, bytes, want) => { writeFileSync(join(dir, `${name}.onnx`), bytes); expect[`${name}.onnx`] = want; };
const relu = (x = 'x', y = 'y') => ({ opType: 'Relu', input: [x], output: [y] });

// TypeError: spec.norm is not a function (OPS['constructor'] was Object)
reg('op-named-constructor', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, null)], node: [{ opType: 'constructor', input: ['x'], output: ['y'] }] }),
  "unsupported op 'constructor'.*not implemented");
// TypeError: shapes[inp.name] is not iterable (an input named like an Object property)
reg('input-named-constructor', model({ input: [vi('constructor', 1, [2])], output: [vi('y', 1, null)], node: [relu('constructor')] }), 'archive');
// TypeError: Cannot read properties of null (reading 'dataType')
reg('tensor-attr-without-tensor', model({ input: [], output: [vi('y', 1, null)], node: [
  { opType: 'Constant', output: ['y'], attribute: [{ name: 'value', type: AT.TENSOR }] }] }), 'of type TENSOR but holds no tensor');
// RangeError: Invalid typed array length (allocated from the declared dims)
reg('initializer-2^40-elements', model({ input: [], output: [vi('w', 1, null)], initializer: [{ name: 'w', dataType: 1, dims: [1048576, 1048576], rawData: new Uint8Array(8) }] }),
  "initializer 'w': dims \\[1048576,1048576\\] x 4 bytes exceed the 4294967295-byte limit");
// internal: value 'x' defined twice
reg('input-declared-twice', model({ input: [vi('x', 1, [2]), vi('x', 6, [3])], output: [vi('y', 1, null)], node: [relu()] }), "graph input 'x' is declared twice");
// converted, but the archive did not load: LIMIT (output too large to address)
reg('const-of-shape-2^31', model({ input: [], output: [vi('y', 1, null)], initializer: [{ name: 's', dataType: 7, dims: [1], int64Data: [2147483648] }],
  node: [{ opType: 'ConstantOfShape', input: ['s'], output: ['y'] }] }), 'the backend refuses the converted graph: .*too large to address');
// was: converted, but the archive did not load (Neg of an i64 constant had
// no kernel; the expanded LayerNormalization test models). Neg has an
// integer kernel since d557a84, so it folds and converts.
reg('neg-i64', model({ input: [], output: [vi('y', 7, null)], initializer: [{ name: 'a', dataType: 7, dims: [1], int64Data: [-1] }],
  node: [{ opType: 'Neg', input: ['a'], output: ['y'] }] }),
  'archive');
// RangeError: Invalid array length (Array(rank - 2) for a rank-1 Conv input)
reg('conv-rank-1', model({ input: [vi('x', 1, [4]), vi('w', 1, [1, 1, 3])], output: [vi('y', 1, null)], node: [{ opType: 'Conv', input: ['x', 'w'], output: ['y'] }] }),
  "unsupported op 'Conv'.*input X has rank 1");
// TypeError: Cannot read properties of undefined (reading 'dtype') (Mean of an undefined input)
reg('mean-undefined-input', model({ input: [], output: [vi('y', 1, null)], node: [{ opType: 'Mean', input: ['nope'], output: ['y'] }] }),
  "input 'nope' of .* \\(Mean\\) is not defined before use");
// TypeError: arr.map is not a function (opset-11 Unsqueeze axes given as INT)
reg('axes-attr-int', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, null)], node: [
  { opType: 'Unsqueeze', input: ['x'], output: ['y'], attribute: [{ name: 'axes', type: AT.INT, i: 0 }] }] }, 11),
  "unsupported op 'Unsqueeze'.*attribute 'axes' is of type int, expected ints");
// converted silently, reading a STRING axis "1" as 1
reg('axis-attr-string', model({ input: [vi('x', 1, [2, 3])], output: [vi('y', 1, null)], node: [
  { opType: 'Softmax', input: ['x'], output: ['y'], attribute: [{ name: 'axis', type: AT.STRING, s: new Uint8Array([49]) }] }] }),
  "unsupported op 'Softmax'.*attribute 'axis' is of type string");
// an attribute named '__proto__' replaced the attribute object's prototype
reg('attr-named-proto', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, null)], node: [
  { opType: 'Relu', input: ['x'], output: ['y'], attribute: [{ name: '__proto__', type: AT.INT, i: 1 }] }] }),
  "unsupported op 'Relu'.*attribute '__proto__' is not supported");

// TypeError: Cannot read properties of undefined (reading 'kind') (1-D MaxPool without its input)
reg('maxpool-1d-missing-input', model({ input: [], output: [vi('y', 1, null)], node: [
  { opType: 'MaxPool', input: [''], output: ['y'], attribute: [{ name: 'kernel_shape', type: AT.INTS, ints: [3] }] }] }),
  "unsupported op 'MaxPool'.*input 0 is missing");
// RangeError: The number 0.5 cannot be converted to a BigInt (opset-11 ReduceMean axes as FLOATS)
reg('axes-attr-floats', model({ input: [vi('x', 1, [2, 3])], output: [vi('y', 1, null)], node: [
  { opType: 'ReduceMean', input: ['x'], output: ['y'], attribute: [{ name: 'axes', type: AT.FLOATS, floats: [0.5] }] }] }, 11),
  "unsupported op 'ReduceMean'.*attribute 'axes' is of type floats, expected ints");
// TypeError: Cannot convert a BigInt value to a number (Shape start = INT64_MAX reached Math.max)
reg('shape-start-int64-max', model({ input: [vi('x', 1, [2, 3])], output: [vi('y', 7, null)], node: [
  { opType: 'Shape', input: ['x'], output: ['y'], attribute: [{ name: 'start', type: AT.INT, i: '9223372036854775807' }] }] }, 15), 'archive');
// an INT attribute beyond 2^53 elsewhere is refused, not computed with
reg('axis-attr-int64-max', model({ input: [vi('x', 1, [2, 3])], output: [vi('y', 1, null)], node: [
  { opType: 'Softmax', input: ['x'], output: ['y'], attribute: [{ name: 'axis', type: AT.INT, i: '9223372036854775807' }] }] }),
  "unsupported op 'Softmax'.*attribute 'axis' = 9223372036854775807 is out of range");

// TypeError: Cannot read properties of undefined (reading 'length') (ConstantOfShape value of type STRINGS)
reg('const-of-shape-value-strings', model({ input: [vi('x', 7, [1])], output: [vi('y', 1, null)], node: [
  { opType: 'ConstantOfShape', input: ['x'], output: ['y'], attribute: [{ name: 'value', type: AT.STRINGS, strings: [new Uint8Array([4])] }] }] }, 9),
  "unsupported op 'ConstantOfShape'.*attribute 'value' is of type strings, expected tensor");
// RangeError: 0.5 cannot be converted to a BigInt (Constant value_ints of type FLOATS)
reg('constant-value-ints-floats', model({ input: [], output: [vi('y', 7, null)], node: [
  { opType: 'Constant', output: ['y'], attribute: [{ name: 'value_ints', type: AT.FLOATS, floats: [0.5] }] }] }),
  "unsupported op 'Constant'.*attribute 'value_ints' is of type floats, expected ints");

// TypeError: Cannot read properties of undefined (reading 'dtype') (opset-7 Clip without inputs; fast-check)
reg('clip-no-input', model({ input: [], output: [vi('y', 1, null)], node: [{ opType: 'Clip', input: [], output: ['y'] }] }, 7),
  "unsupported op 'Clip'.*input 0 is missing");

// TypeError in rewrites/remove-identity.js (an Identity without inputs; fast-check)
reg('identity-no-input', model({ input: [], output: [vi('y', 1, null)], node: [{ opType: 'Identity', input: [], output: ['y'] }] }),
  "unsupported op 'Identity'.*input 0 is missing");

// internal: writeElems of float16 (Clip-8 writes its default bounds in the input's dtype; campaign)
reg('clip8-float16', model({ input: [vi('x', 10, [4])], output: [vi('y', 10, null)], node: [{ opType: 'Clip', input: ['x'], output: ['y'] }] }, 8),
  "unsupported op 'Clip'.*a float16 constant would be needed");

// internal: cannot reshape constant 'w' [0,3] to [0,0,1,-1] (1-D Conv with a rank-2 W; fast-check mutator)
reg('conv1d-weight-rank-2', model({ input: [vi('x', 1, [1, 1, 4])], output: [vi('y', 1, null)], initializer: [{ name: 'w', dataType: 1, dims: [0, 3] }],
  node: [{ opType: 'Conv', input: ['x', 'w'], output: ['y'] }] }, 11),
  "unsupported op 'Conv'.*input X has rank 3 but weight W rank 2");

// Constant folding of tiny files asking for huge constants (campaign timeouts; docs/converter.md "Fold budget").
// `fast`: also within 3 s (they take milliseconds; before the budget, seconds to minutes).
// Each converted (the node stays; the runtime computes it at load under its memory budget) only after
// the fold decided from the inferred output size, without running the kernel, and the trial load was bounded:
// Range(0, 4e9, 33) of i64 scalars (60 bytes, 970 MB of output): 79 s and 3.8 GB of RSS
const fast = (outcome) => ({ outcome, maxMs: 3000 });
const i64s = (n, v) => ({ name: n, dataType: 7, int64Data: [v] });
const range = (step) => model({ input: [], output: [vi('y', 7, null)], initializer: [i64s('a', 0), i64s('l', '4000000000'), i64s('d', step)],
  node: [{ opType: 'Range', input: ['a', 'l', 'd'], output: ['y'] }] });
reg('fold-range-4e9-step-33', range(33), fast('archive'));
// Range(0, 4e9, 112) (285 MB): > 10 s
reg('fold-range-4e9-step-112', range(112), fast('archive'));
// ConstantOfShape([24, 2^20]) + Add (80 bytes): a 100 MB archive, then 5-7 s and 450 MB folding and trial-loading it
const cosAdd = (d0) => model({ input: [vi('x', 1, [1])], output: [vi('z', 1, null)], initializer: [{ name: 's', dataType: 7, dims: [2], int64Data: [d0, 1048576] }],
  node: [{ opType: 'ConstantOfShape', input: ['s'], output: ['y'] }, { opType: 'Add', input: ['x', 'y'], output: ['z'] }] });
reg('fold-const-of-shape-24x2^20-add', cosAdd(24), fast('archive'));
reg('fold-const-of-shape-40x2^20-add', cosAdd(40), fast('archive'));
// folds that compound: ten Tiles x4 of a 1 KiB constant (each within 4x its inputs + 64 KiB; 1 GiB at the end)
reg('fold-tile-chain-x4^10', model({ input: [], output: [vi('t10', 1, null)],
  initializer: [{ name: 't0', dataType: 1, dims: [256], floatData: Array.from({ length: 256 }, (_, i) => i) }, { name: 'r', dataType: 7, dims: [1], int64Data: [4] }],
  node: Array.from({ length: 10 }, (_, k) => ({ opType: 'Tile', input: [`t${k}`, 'r'], output: [`t${k + 1}`] })) }), fast('archive'));
// a constant cone whose values are each under the trial load's budget and 2.4 GB together: 40 x ConstantOfShape([15 * 2^20])
reg('fold-cone-40x60MiB', model({ input: [], output: Array.from({ length: 40 }, (_, k) => vi(`y${k}`, 1, null)),
  initializer: [{ name: 's', dataType: 7, dims: [1], int64Data: [15 * 1048576] }],
  node: Array.from({ length: 40 }, (_, k) => ({ opType: 'ConstantOfShape', input: ['s'], output: [`y${k}`] })) }), fast('archive'));
// a constant cone of 63.7 MiB whose work is not in its bytes: MatMul of two ConstantOfShape([2890, 2890]) (24 G multiply-adds, 3-4 s per load)
reg('fold-cone-matmul-2890', model({ input: [], output: [vi('z', 1, null)], initializer: [{ name: 's', dataType: 7, dims: [2], int64Data: [2890, 2890] }],
  node: [{ opType: 'ConstantOfShape', input: ['s'], output: ['y'] }, { opType: 'MatMul', input: ['y', 'y'], output: ['z'] }] }), fast('archive'));

writeFileSync(join(dir, 'expect.json'), `${JSON.stringify(expect, null, 2)}\n`);
console.log(`make-regressions: ${Object.keys(expect).length} regressions in ${dir}`);
