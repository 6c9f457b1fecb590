// session.refine(plan, state) over small archives built here: convergence,
// a converged fixed point answered from the memo, budget and repair,
// contracts by name or index, and refused plans.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { load, HologramError } from '../../bindings-js/index.js';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';

// s' = relu(s) (a fixed point after one pass), y = s + z (never stable while z != 0)
function archive() {
  const g = new GraphBuilder();
  const s = g.input('s', DT.f32, [4]);
  const z = g.input('z', DT.f32, [4]);
  const [r] = g.node('Relu', [s], { name: 'relu' });
  const [y] = g.node('Add', [s, z], { name: 'acc' });
  g.output(r);
  g.output(y);
  return writeHolo(g.toJSON());
}
const state = () => ({ s: new Float32Array([-1, 2, -3, 4]), z: new Float32Array([1, 1, 1, 1]) });
const code = (fn, c, re) => { try { fn(); } catch (e) { assert.instance(e, HologramError); assert.is(e.code, c, e.message); if (re) assert.match(e.message, re); return; } assert.unreachable(c); };

test('converges; a repeat is a memo hit that dispatches nothing', async () => {
  const s = await load(archive());
  const plan = { passBudget: 5, validators: ['stableLabels'], contract: { inputs: ['s'], outputs: ['relu:out'] } };
  const r = s.refine(plan, state());
  assert.is(r.status, 'converged');
  assert.is(r.converged, true);
  assert.is(r.passes, 2);
  assert.is(r.extraPassesUsed, 0);
  assert.is(r.stateLabels.length, 1);
  assert.match(r.stateLabels[0], /^sha256:[0-9a-f]{64}$/); // a content label (state is hashed between passes)
  assert.equal(Array.from(r.outputs[0].data), [0, 2, 0, 4]);
  assert.ok(r.dispatches > 0);
  assert.ok(r.residentCount > 0 && r.residentBytes > 0);
  const again = s.refine(plan, state());
  assert.is(again.status, 'converged');
  assert.is(again.dispatches, 0);
  assert.ok(again.memoHits > 0);
  assert.is(again.stateLabels[0], r.stateLabels[0]);
  const ordered = s.refine({ ...plan, contract: { inputs: [0], outputs: [0] } }, [state().s, state().z]);
  assert.is(ordered.stateLabels[0], r.stateLabels[0]);
});

test('stableBytes compares bytes; budget exhausted; repair passes', async () => {
  const s = await load(archive());
  const contract = { inputs: [0], outputs: [1] };
  const b = s.refine({ passBudget: 3, validators: ['stableBytes'], contract }, state());
  assert.is(b.status, 'budgetExhausted');
  assert.is(b.converged, false);
  assert.is(b.passes, 3);
  assert.equal(Array.from(b.outputs[1].data), [2, 5, 0, 7]);
  const f = s.refine({ passBudget: 3, repair: { retryPass: 2 }, contract }, state());
  assert.is(f.status, 'failed');
  assert.is(f.passes, 5);
  assert.is(f.extraPassesUsed, 2);
  const ok = s.refine({ passBudget: 1, validators: ['stableBytes'], repair: { retryPass: 3 }, contract: { inputs: ['s'], outputs: ['relu:out'] } }, state());
  assert.is(ok.status, 'repaired');
  assert.is(ok.converged, true);
  assert.is(ok.extraPassesUsed, 1);
  assert.ok(ok.bytesCompared >= 16);
});

test('refused plans and contracts: ARG, STATE; the session stays usable', async () => {
  const s = await load(archive());
  code(() => s.refine({ passBudget: 0 }, state()), 'ARG', /passBudget/);
  code(() => s.refine({ passBudget: 2, validators: ['stable'] }, state()), 'ARG', /unknown validator 'stable'/);
  code(() => s.refine({ passBudget: 2, repair: 'twice' }, state()), 'ARG', /repair/);
  code(() => s.refine({ passBudget: 2, budget: 3 }, state()), 'ARG', /unknown plan field 'budget'/);
  code(() => s.refine({ passBudget: 2, contract: { inputs: ['q'], outputs: [0] } }, state()), 'ARG', /names no input "q"/);
  code(() => s.refine({ passBudget: 2, contract: { inputs: [0], outputs: [0, 1] } }, state()), 'ARG', /equal length/);
  code(() => s.refine({ passBudget: 2 }, { s: state().s }), 'INPUT', /missing feed for input 'z'/);
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [4]);
  const [t] = g.node('Transpose', [g.constant('c', DT.f32, [2, 3], new Float32Array(6))], { name: 't', attrs: { perm: [1, 0] } });
  const [y] = g.node('Relu', [x], { name: 'r' });
  g.output(y);
  g.output(t);
  const s2 = await load(writeHolo(g.toJSON()));
  code(() => s2.refine({ passBudget: 2, contract: { inputs: [0], outputs: [1] } }, [new Float32Array(4)]), 'STATE', /./);
  code(() => s2.refine({ passBudget: 2 }, [new Float32Array(4)]), 'STATE', /arity/);
  assert.is(s.refine({ passBudget: 4, contract: { inputs: [0], outputs: [0] } }, state()).status, 'converged');
});

test.run();
