// compiler/toposort.js: the converter sorts a graph's nodes (ORT runs
// unsorted graphs, and shipped models like imgly's float16 ISNet are unsorted).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { topoSort } from '../../compiler/toposort.js';
import { convert } from '../../compiler/convert.js';
import { OnnxBuilder, FLOAT } from './onnx-build.mjs';

const N = (name, inputs, outputs) => ({ name, inputs, outputs });

test('a sorted graph keeps its order; an unsorted one gets the nearest sorted order', () => {
  const known = new Set(['x', 'w']);
  const sorted = [N('a', ['x', 'w'], ['t']), N('b', ['x'], ['u']), N('c', ['t', 'u'], ['y'])];
  assert.equal(topoSort(sorted, known).map((n) => n.name), ['a', 'b', 'c']);
  const shuffled = [N('c', ['t', 'u'], ['y']), N('b', ['x'], ['u']), N('a', ['x', 'w'], ['t'])];
  assert.equal(topoSort(shuffled, known).map((n) => n.name), ['b', 'a', 'c']);
  // an input no node produces, and a cycle: left in file order at the end
  const broken = [N('p', ['q_out'], ['p_out']), N('q', ['p_out'], ['q_out']), N('r', ['nowhere'], ['r_out']), N('s', ['x'], ['s_out'])];
  assert.equal(topoSort(broken, known).map((n) => n.name), ['r', 's', 'p', 'q']);
});

test('convert: an unsorted graph converts to the same archive as its sorted form; a cycle is still refused', () => {
  const build = (order) => {
    const b = new OnnxBuilder(13).input('x', FLOAT, [2, 3]).output('y', FLOAT, [2, 3]);
    const nodes = { relu: () => b.node('Relu', ['x'], ['r'], {}, 'relu'), neg: () => b.node('Neg', ['r'], ['n'], {}, 'neg'), add: () => b.node('Add', ['n', 'x'], ['y'], {}, 'add') };
    for (const k of order) nodes[k]();
    return b.bytes();
  };
  const a = convert(build(['relu', 'neg', 'add'])).holo, b = convert(build(['add', 'neg', 'relu'])).holo;
  assert.equal(Buffer.from(b).toString('hex'), Buffer.from(a).toString('hex'));
  const cyc = new OnnxBuilder(13).input('x', FLOAT, [2]).output('y', FLOAT, [2]);
  cyc.node('Add', ['x', 'z'], ['y'], {}, 'p').node('Neg', ['y'], ['z'], {}, 'q');
  assert.throws(() => convert(cyc.bytes()), /not defined before use/);
});

test.run();
