// The race harnesses' rule that a timed run computed everything
// (bench/zoo/computed.mjs): a memo answer, a run that dispatched nothing, or
// (without control flow) a run that visited fewer nodes than the first is
// refused; a graph with a runtime If may visit a different node count but not
// elide a larger share than its first run did. hasControlFlow reads the archive.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { convert } from '../../compiler/convert.js';
import { computedChecker, hasControlFlow } from '../../bench/zoo/computed.mjs';
import { OnnxBuilder, FLOAT, BOOL, G, rand } from './onnx-build.mjs';

const C = (d, el, memo = 0, ex = 1) => ({ dispatches: d, elided: el, memoHits: memo, executions: ex });
const Z = C(0, 0, 0, 0);

test('without control flow: the first run fixes the visited count; memo hits and empty runs are refused', () => {
  const check = computedChecker({ kernelCount: 10, controlFlow: false });
  assert.is(check(Z, C(8, 2)), null);
  assert.is(check(Z, C(8, 2)), null);
  assert.match(check(Z, C(7, 2)), /did not compute everything/);
  assert.match(check(Z, C(8, 1)), /did not compute everything/);
  assert.match(check(Z, C(8, 2, 1)), /memoHits \+1/);
  assert.match(check(Z, C(0, 10)), /dispatches 0/);
  assert.match(check(Z, C(8, 2, 0, 2)), /did not compute everything/);
  assert.match(computedChecker({ kernelCount: 5, controlFlow: false })(Z, C(8, 0)), /did not compute everything/);
});

test('with control flow: the visited count may change, the elided share may not grow', () => {
  const check = computedChecker({ kernelCount: 500, controlFlow: true });
  assert.is(check(Z, C(402, 15)), null); // fasterrcnn's first run
  assert.is(check(Z, C(402, 12)), null); // a branch not taken this time
  assert.is(check(Z, C(450, 15)), null); // more iterations, nothing more elided
  assert.match(check(Z, C(300, 117)), /elided more than the first/);
  assert.match(check(Z, C(402, 15, 1)), /memoHits \+1/);
  assert.match(check(Z, C(0, 417)), /dispatches 0/);
});

test('hasControlFlow: an archive with a runtime If is control flow; a plain graph and a folded If are not', () => {
  const plain = new OnnxBuilder(13).input('x', FLOAT, [2, 3]).init('w', FLOAT, [2, 3], rand(6)).node('Add', ['x', 'w'], ['y']).output('y', FLOAT, [2, 3]);
  assert.is(hasControlFlow(convert(plain.bytes()).holo), false);
  const branch = (op) => new OnnxBuilder().node(op, ['x', 'w'], ['y']).output('y', FLOAT, [2, 3]);
  const folded = new OnnxBuilder(13).input('x', FLOAT, [2, 3]).init('w', FLOAT, [2, 3], rand(6)).init('c', BOOL, [], [1]);
  folded.node('If', ['c'], ['y'], { then_branch: G(branch('Add')), else_branch: G(branch('Mul')) }).output('y', FLOAT, [2, 3]);
  assert.is(hasControlFlow(convert(folded.bytes()).holo), false);
  const gat = new OnnxBuilder().node('Relu', ['x'], ['r']).node('Gather', ['r', 'i'], ['y']).output('y', FLOAT, null);
  const rt = new OnnxBuilder(13).input('c', BOOL, []).input('x', FLOAT, [2, 3]).init('w', FLOAT, [2, 3], rand(6)).init('i', 7, [1], [1]);
  rt.node('If', ['c'], ['y'], { then_branch: G(gat), else_branch: G(branch('Mul')) }).output('y', FLOAT, null);
  assert.is(hasControlFlow(convert(rt.bytes()).holo), true);
});

test.run();
