// Refinement's records: a plan checked and written as wasm_refine_args, and
// the holo_refine_report read back.
import { HologramError } from './errors.js';
import { CONST, Struct, regions } from './layout.js';

const ARGS = new Struct('wasm_refine_args', ['pass_budget', 'validators', 'repair', 'extra_passes', 'has_contract', 'n', 'input', 'output']);
const REPORT = new Struct('holo_refine_report', ['status', 'passes', 'extra_passes_used', 'n_state', 'state_labels', 'dispatches', 'elided', 'memo_hits', 'bytes_compared', 'resident_bytes', 'resident_count']);
const REFINE_STATUS = { [CONST.HOLO_REFINE_CONVERGED]: 'converged', [CONST.HOLO_REFINE_BUDGET_EXHAUSTED]: 'budgetExhausted', [CONST.HOLO_REFINE_REPAIRED]: 'repaired', [CONST.HOLO_REFINE_FAILED]: 'failed' };
const CONVERGED = new Set([CONST.HOLO_REFINE_CONVERGED, CONST.HOLO_REFINE_REPAIRED]);
const VALIDATORS = { stableLabels: CONST.HOLO_VALIDATE_STABLE_LABELS, stableBytes: CONST.HOLO_VALIDATE_STABLE_BYTES };
const PLAN_FIELDS = new Set(['passBudget', 'validators', 'repair', 'contract']);
const MAX_STATE = CONST.HOLO_MAX_STATE;

/** The scratch of one refine call: the args, then the report (16-aligned, as the allocation). */
export const SCRATCH = regions([['args', ARGS.sizeof, ARGS.alignof], ['report', REPORT.sizeof, Math.max(REPORT.alignof, 16)]]);

function contractOf(c, inputs, outputs) {
  if (!c || !Array.isArray(c.inputs) || !Array.isArray(c.outputs) || c.inputs.length !== c.outputs.length || c.inputs.length > MAX_STATE) {
    throw new HologramError('ARG', `refine: contract must be { inputs: [...], outputs: [...] } of equal length (at most ${MAX_STATE})`);
  }
  const idx = (list, ports, kind) => list.map((p) => {
    const i = typeof p === 'string' ? ports.findIndex((q) => q.name === p) : p;
    if (!Number.isInteger(i) || i < 0 || i >= ports.length) throw new HologramError('ARG', `refine: contract names no ${kind} ${JSON.stringify(p)}`);
    return i;
  });
  return { inputs: idx(c.inputs, inputs, 'input'), outputs: idx(c.outputs, outputs, 'output') };
}

/** A refine plan checked against the session's ports. */
export function parsePlan(plan, inputs, outputs) {
  if (plan === null || typeof plan !== 'object') throw new HologramError('ARG', 'refine: plan must be an object { passBudget, validators?, repair?, contract? }');
  for (const k of Object.keys(plan)) if (!PLAN_FIELDS.has(k)) throw new HologramError('ARG', `refine: unknown plan field '${k}'`);
  const passBudget = plan.passBudget;
  if (!Number.isInteger(passBudget) || passBudget < 1 || passBudget > 0xffffffff) throw new HologramError('ARG', `refine: passBudget must be a positive integer, got ${String(passBudget)}`);
  let validators = 0;
  for (const v of plan.validators ?? ['stableLabels']) {
    if (!(v in VALIDATORS)) throw new HologramError('ARG', `refine: unknown validator '${v}' (stableLabels, stableBytes)`);
    validators |= VALIDATORS[v];
  }
  let repair = CONST.HOLO_REPAIR_NONE, extraPasses = 0;
  const r = plan.repair ?? 'none';
  if (r !== 'none') {
    const n = r && typeof r === 'object' ? r.retryPass : undefined;
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new HologramError('ARG', "refine: repair must be 'none' or { retryPass: n } with n a non-negative integer");
    repair = CONST.HOLO_REPAIR_RETRY_PASS; extraPasses = n;
  }
  const contract = plan.contract !== undefined ? contractOf(plan.contract, inputs, outputs) : null;
  return { passBudget, validators, repair, extraPasses, contract };
}

/** Zeroes the scratch at p and writes the plan's args into it. */
export function writeArgs(rt, p, a) {
  new Uint8Array(rt.mem, p, SCRATCH.size).fill(0);
  const dv = rt.dv();
  ARGS.set(dv, p, 'pass_budget', a.passBudget);
  ARGS.set(dv, p, 'validators', a.validators);
  ARGS.set(dv, p, 'repair', a.repair);
  ARGS.set(dv, p, 'extra_passes', a.extraPasses);
  ARGS.set(dv, p, 'has_contract', a.contract ? 1 : 0);
  ARGS.set(dv, p, 'n', a.contract ? a.contract.inputs.length : 0);
  if (a.contract) {
    a.contract.inputs.forEach((port, k) => ARGS.set(dv, p, 'input', port, k));
    a.contract.outputs.forEach((port, k) => ARGS.set(dv, p, 'output', port, k));
  }
}

/** The report at p (outputs filled in by the caller). */
export function readReport(rt, p) {
  const dv = rt.dv();
  const status = REPORT.get(dv, p, 'status');
  const nState = Math.min(REPORT.get(dv, p, 'n_state'), MAX_STATE);
  const u64 = (k) => REPORT.num(dv, p, k);
  return {
    status: REFINE_STATUS[status] ?? String(status),
    converged: CONVERGED.has(status),
    passes: REPORT.get(dv, p, 'passes'),
    extraPassesUsed: REPORT.get(dv, p, 'extra_passes_used'),
    stateLabels: Array.from({ length: nState }, (_, k) => rt.cstr(p + REPORT.offset('state_labels', k), CONST.HOLO_LABEL_LEN)),
    dispatches: u64('dispatches'), elided: u64('elided'), memoHits: u64('memo_hits'), bytesCompared: u64('bytes_compared'),
    residentBytes: u64('resident_bytes'), residentCount: REPORT.get(dv, p, 'resident_count'),
    outputs: [],
  };
}
