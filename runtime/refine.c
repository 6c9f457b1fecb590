/* Refinement plans and runners (docs/refinement.md). */
#include "hologram/refine.h"

#include "hologram/mem.h"
#include "hologram/resident.h"

void holo_refine_plan_init(holo_refine_plan *p, uint32_t pass_budget) {
  if (!p) return;
  holo_memset(p, 0, sizeof *p);
  p->pass_budget = pass_budget;
}

void holo_refine_plan_validator(holo_refine_plan *p, holo_validator_kind v) {
  if (p) p->validators |= (uint32_t)v, p->built = false;
}

void holo_refine_plan_repair(holo_refine_plan *p, holo_repair_kind r, uint32_t extra_passes) {
  if (!p) return;
  p->repair = r;
  p->extra_passes = extra_passes;
  p->built = false;
}

void holo_refine_plan_contract(holo_refine_plan *p, const holo_state_contract *c) {
  if (!p || !c) return;
  p->contract = *c;
  p->has_contract = true;
  p->built = false;
}

holo_status holo_refine_plan_build(holo_refine_plan *p, holo_error *err) {
  if (!p) return holo_err(err, HOLO_ERR_ARG, "refine plan is NULL");
  p->built = false;
  if (p->pass_budget == 0) return holo_err(err, HOLO_ERR_ARG, "refine plan: pass budget must be at least 1");
  if (p->validators & ~(uint32_t)(HOLO_VALIDATE_STABLE_LABELS | HOLO_VALIDATE_STABLE_BYTES))
    return holo_err(err, HOLO_ERR_ARG, "refine plan: unknown validator bits 0x%x", p->validators);
  if (p->repair != HOLO_REPAIR_NONE && p->repair != HOLO_REPAIR_RETRY_PASS)
    return holo_err(err, HOLO_ERR_ARG, "refine plan: unknown repair policy %d", (int)p->repair);
  if (p->repair == HOLO_REPAIR_RETRY_PASS && p->extra_passes == 0)
    return holo_err(err, HOLO_ERR_ARG, "refine plan: RetryPass needs extra_passes >= 1");
  if (p->repair == HOLO_REPAIR_NONE && p->extra_passes)
    return holo_err(err, HOLO_ERR_ARG, "refine plan: extra_passes %u given without RetryPass", p->extra_passes);
  if (p->repair == HOLO_REPAIR_RETRY_PASS && !p->validators)
    return holo_err(err, HOLO_ERR_ARG, "refine plan: RetryPass without a validator can never converge");
  if (p->pass_budget > 0xFFFFFFFFu - p->extra_passes)
    return holo_err(err, HOLO_ERR_LIMIT, "refine plan: pass budget + extra passes overflow");
  if (p->has_contract) {
    const holo_state_contract *c = &p->contract;
    if (c->n == 0 || c->n > HOLO_MAX_STATE)
      return holo_err(err, HOLO_ERR_ARG, "refine plan: state contract has %u ports (1..%u)", c->n, HOLO_MAX_STATE);
    for (uint32_t i = 0; i < c->n; i++)
      for (uint32_t j = 0; j < i; j++) {
        if (c->input[i] == c->input[j])
          return holo_err(err, HOLO_ERR_ARG, "refine plan: state input %u listed twice", c->input[i]);
        if (c->output[i] == c->output[j])
          return holo_err(err, HOLO_ERR_ARG, "refine plan: state output %u feeds two inputs", c->output[i]);
      }
  }
  p->built = true;
  return HOLO_OK;
}

const char *holo_refine_status_name(holo_refine_status st) {
  switch (st) {
  case HOLO_REFINE_CONVERGED: return "converged";
  case HOLO_REFINE_BUDGET_EXHAUSTED: return "budget_exhausted";
  case HOLO_REFINE_REPAIRED: return "repaired";
  case HOLO_REFINE_FAILED: return "failed";
  }
  return "unknown";
}

/* ------------------------------------------------------------- contracts */

static holo_status check_pair(const holo_session *s, uint32_t k, uint32_t in, uint32_t out, holo_error *err) {
  uint32_t n_in = holo_session_input_count(s), n_out = holo_session_output_count(s);
  if (in >= n_in) return holo_err(err, HOLO_ERR_STATE, "state %u: input port %u does not exist (%u inputs)", k, in, n_in);
  if (out >= n_out)
    return holo_err(err, HOLO_ERR_STATE, "state %u: output port %u does not exist (%u outputs)", k, out, n_out);
  holo_port_info vi, vo;
  holo_session_input_info(s, in, &vi);
  holo_session_output_info(s, out, &vo);
#define PAIR_FMT "state input %u (%.*s) / output %u (%.*s): "
#define PAIR_ARGS in, (int)vi.name_len, vi.name, out, (int)vo.name_len, vo.name
  if (vi.dtype != vo.dtype)
    return holo_err(err, HOLO_ERR_STATE, PAIR_FMT "dtype differs (%u vs %u)", PAIR_ARGS, vi.dtype, vo.dtype);
  /* An output whose shape the archive leaves open is checked at each pass. */
  if (vo.rank == HOLO_RANK_UNKNOWN) return HOLO_OK;
  bool concrete = true;
  size_t ni = 1, no = 1;
  for (uint32_t d = 0; d < vi.rank; d++) concrete = concrete && vi.shape[d] >= 0;
  for (uint32_t d = 0; d < vo.rank; d++) concrete = concrete && vo.shape[d] >= 0;
  if (concrete) {
    if (!holo_shape_numel(vi.shape, vi.rank, &ni) || !holo_shape_numel(vo.shape, vo.rank, &no))
      return holo_err(err, HOLO_ERR_LIMIT, PAIR_FMT "element count overflows", PAIR_ARGS);
    if (ni != no)
      return holo_err(err, HOLO_ERR_STATE, PAIR_FMT "element count differs (%zu vs %zu)", PAIR_ARGS, ni, no);
  }
  bool same = vi.rank == vo.rank;
  for (uint32_t d = 0; same && d < vi.rank; d++) same = vi.shape[d] == vo.shape[d];
  if (!same) return holo_err(err, HOLO_ERR_STATE, PAIR_FMT "shape differs", PAIR_ARGS);
#undef PAIR_FMT
#undef PAIR_ARGS
  return HOLO_OK;
}

holo_status holo_refine_runner_init(holo_refine_runner *r, holo_session *s, const holo_refine_plan *plan,
                                    holo_error *err) {
  if (!r || !s || !plan) return holo_err(err, HOLO_ERR_ARG, "refine runner: runner, session or plan is NULL");
  if (!plan->built) return holo_err(err, HOLO_ERR_ARG, "refine runner: plan was not built (holo_refine_plan_build)");
  holo_memset(r, 0, sizeof *r);
  r->s = s;
  r->plan = plan;
  uint32_t n_in = holo_session_input_count(s), n_out = holo_session_output_count(s);
  holo_status st = HOLO_OK;
  if (plan->has_contract) {
    r->contract = plan->contract;
  } else if ((st = holo_session_state_contract(s, &r->contract)) != HOLO_OK) {
    return holo_err(err, st, "state contract: the archive's cannot be read");
  } else if (!r->contract.n) {
    /* Derived: every input is state, fed by the output of the same index
     * (the archive's own contract, if any, was taken above). */
    if (n_in != n_out || n_in == 0 || n_in > HOLO_MAX_STATE)
      return holo_err(err, HOLO_ERR_STATE, "state contract: arity differs (%u inputs, %u outputs); give a contract",
                      n_in, n_out);
    r->contract.n = n_in;
    for (uint32_t i = 0; i < n_in; i++) r->contract.input[i] = r->contract.output[i] = i;
  }
  for (uint32_t k = 0; k < r->contract.n; k++) {
    st = check_pair(s, k, r->contract.input[k], r->contract.output[k], err);
    if (st) return st;
  }
  return HOLO_OK;
}

/* ------------------------------------------------------------------ run */

static void release_all(holo_session *s, const holo_digest *d, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) holo_session_release(s, &d[i]);
}

holo_status holo_refine_run(holo_refine_runner *r, const holo_input *inputs, uint32_t n,
                            holo_refine_report *rep, holo_view *final, uint32_t n_out, holo_error *err) {
  if (!r || !r->s || !rep) return holo_err(err, HOLO_ERR_ARG, "refine: runner or report is NULL");
  holo_session *s = r->s;
  const uint32_t n_in = holo_session_input_count(s), n_outs = holo_session_output_count(s);
  const holo_refine_plan *plan = r->plan;
  const holo_state_contract *c = &r->contract;
  if (n != n_in) return holo_err(err, HOLO_ERR_INPUT, "refine: expected %u inputs, got %u", n_in, n);
  if (n && !inputs) return holo_err(err, HOLO_ERR_ARG, "refine: inputs is NULL");
  if (final && n_out != n_outs)
    return holo_err(err, HOLO_ERR_ARG, "refine: %u views given, the archive has %u outputs", n_out, n_outs);
  if (n > 64) return holo_err(err, HOLO_ERR_LIMIT, "refine: more than 64 inputs");

  holo_memset(rep, 0, sizeof *rep);
  holo_counters before;
  holo_session_counters(s, &before);
  holo_digest cur[64];
  uint32_t held = 0;
  holo_status st = HOLO_OK;
  for (; held < n && !st; held++) st = holo_session_intern_input(s, held, &inputs[held], &cur[held], err);
  if (st) {
    release_all(s, cur, held - 1);
    return st;
  }

  uint32_t limit = plan->pass_budget + (plan->repair == HOLO_REPAIR_RETRY_PASS ? plan->extra_passes : 0);
  rep->status = plan->repair == HOLO_REPAIR_RETRY_PASS ? HOLO_REFINE_FAILED : HOLO_REFINE_BUDGET_EXHAUSTED;
  for (uint32_t pass = 1; pass <= limit && !st; pass++) {
    if ((st = holo_execute_labels(s, cur, err))) break;
    holo_digest next[HOLO_MAX_STATE];
    uint32_t got = 0;
    for (; got < c->n && !st; got++) st = holo_session_output_content(s, c->output[got], &next[got], err);
    if (st) {
      release_all(s, next, got - 1);
      break;
    }
    bool stable = plan->validators != 0;
    for (uint32_t k = 0; k < c->n && !st; k++) {
      const holo_digest *old = &cur[c->input[k]];
      size_t lo = 0, ln = 0;
      uint32_t dto, dtn, ro, rn;
      const int64_t *so, *sn;
      const void *bo = holo_session_resident(s, old, &lo, &dto, &ro, &so), *bn = holo_session_resident(s, &next[k], &ln, &dtn, &rn, &sn);
      bool same_shape = bo && bn && ro == rn;
      for (uint32_t d = 0; same_shape && d < ro; d++) same_shape = so[d] == sn[d];
      if (!bo || !bn || lo != ln || dto != dtn || !same_shape) {
        st = holo_err(err, HOLO_ERR_STATE,
                      "refine pass %u: state output %u (byte length %zu, dtype %u) does not match input %u (byte "
                      "length %zu, dtype %u) or its shape",
                      pass, c->output[k], ln, bn ? dtn : 0, c->input[k], lo, bo ? dto : 0);
        break;
      }
      if (plan->validators & HOLO_VALIDATE_STABLE_LABELS) stable = stable && holo_digest_eq(old, &next[k]);
      if ((plan->validators & HOLO_VALIDATE_STABLE_BYTES) && stable) {
        rep->bytes_compared += lo;
        stable = holo_memcmp(bo, bn, lo) == 0;
      }
    }
    if (st) {
      release_all(s, next, c->n);
      break;
    }
    for (uint32_t k = 0; k < c->n; k++) {
      holo_session_release(s, &cur[c->input[k]]);
      cur[c->input[k]] = next[k];
    }
    rep->passes = pass;
    if (pass > plan->pass_budget) rep->extra_passes_used++;
    if (stable) {
      rep->status = pass > plan->pass_budget ? HOLO_REFINE_REPAIRED : HOLO_REFINE_CONVERGED;
      break;
    }
    if (pass == plan->pass_budget && plan->repair == HOLO_REPAIR_NONE) break;
  }
  if (!st) {
    rep->n_state = c->n;
    for (uint32_t k = 0; k < c->n; k++) holo_label_render(&cur[c->input[k]], rep->state_labels[k]);
    if (final)
      for (uint32_t p = 0; p < n_outs; p++) holo_session_output_view(s, p, &final[p]);
  }
  release_all(s, cur, n);
  holo_counters after;
  holo_session_counters(s, &after);
  rep->dispatches = after.dispatches - before.dispatches;
  rep->elided = after.elided - before.elided;
  rep->memo_hits = after.memo_hits - before.memo_hits;
  rep->resident_bytes = holo_session_resident_bytes(s);
  rep->resident_count = holo_session_resident_count(s);
  return st;
}

/* ------------------------------------------------------ owning wrapper */

struct holo_compiled_refinement {
  holo_allocator a;
  holo_session *s;
  holo_refine_plan plan;
  holo_refine_runner r;
};

holo_status holo_compiled_refinement_new(const uint8_t *archive, size_t len, const holo_backend *backend,
                                         const holo_options *options, const holo_refine_plan *plan,
                                         holo_compiled_refinement **out, holo_error *err) {
  if (!out || !plan || !options || !options->allocator)
    return holo_err(err, HOLO_ERR_ARG, "compiled refinement: out, plan or options->allocator is NULL");
  *out = 0;
  const holo_allocator *a = options->allocator;
  holo_compiled_refinement *c = a->alloc(a->ctx, sizeof *c, 16);
  if (!c) return holo_err(err, HOLO_ERR_MEMORY, "out of memory");
  holo_memset(c, 0, sizeof *c);
  c->a = *a;
  c->plan = *plan;
  holo_status st = holo_session_load(archive, len, backend, options, &c->s, err);
  if (!st) st = holo_refine_runner_init(&c->r, c->s, &c->plan, err);
  if (st) {
    holo_compiled_refinement_free(c);
    return st;
  }
  *out = c;
  return HOLO_OK;
}

holo_session *holo_compiled_refinement_session(holo_compiled_refinement *c) { return c ? c->s : 0; }

holo_status holo_compiled_refinement_run(holo_compiled_refinement *c, const holo_input *inputs, uint32_t n,
                                         holo_refine_report *report, holo_error *err) {
  if (!c) return holo_err(err, HOLO_ERR_ARG, "compiled refinement is NULL");
  return holo_refine_run(&c->r, inputs, n, report, 0, 0, err);
}

void holo_compiled_refinement_free(holo_compiled_refinement *c) {
  if (!c) return;
  holo_session_free(c->s);
  c->a.free(c->a.ctx, c);
}
