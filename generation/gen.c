/* The generator: a causal step graph driven token by token over a session,
 * its state held as content-labelled resident values (docs/generation.md). */
#include "hologram/generate.h"

#include "gen-ports.h"

#include "hologram/mem.h"
#include "hologram/resident.h"

#define D(x) ((holo_digest *)(x))
#define CD(x) ((const holo_digest *)(x))

void holo_causal_model_default(holo_causal_model *m) {
  holo_memset(m, 0, sizeof *m);
  m->position_input = -1;
}

static void counters_add(holo_gen *g, const holo_counters *b) {
  holo_counters a;
  holo_session_counters(g->s, &a);
  g->stats.dispatches += a.dispatches - b->dispatches;
  g->stats.memo_hits += a.memo_hits - b->memo_hits;
  g->stats.elided += a.elided - b->elided;
}

/* Zeros of a port's shape (symbolic dims 0), interned and held. */
static holo_status intern_zero(holo_gen *g, uint32_t port, holo_digest *out, holo_error *err) {
  holo_port_info v;
  holo_session_input_info(g->s, port, &v);
  int64_t shape[HOLO_MAX_RANK];
  uint32_t rank;
  holo_status st = holo_gen_zero_shape(g, port, shape, &rank, err);
  if (st) return st;
  size_t len;
  if (!holo_shape_bytes(v.dtype, shape, rank, &len))
    return holo_err(err, HOLO_ERR_LIMIT, "generator: state input %u: size overflows", port);
  void *z = 0;
  if (len) {
    z = g->a.alloc(g->a.ctx, len, 64);
    if (!z) return holo_err(err, HOLO_ERR_MEMORY, "generator: out of memory (%zu bytes of initial state)", len);
    holo_memset(z, 0, len);
  }
  holo_input in = {z, len, shape, rank};
  st = holo_session_intern_input(g->s, port, &in, out, err);
  if (z) g->a.free(g->a.ctx, z);
  return st;
}

/* The output named "present" + R for an input named "past" + R (the
 * key-value cache of decoder exports: past_k_0 -> present_k_0), or n_out. */
static uint32_t present_of(holo_session *s, const holo_port_info *in) {
  uint32_t n_out = holo_session_output_count(s);
  if (in->name_len < 4 || holo_memcmp(in->name, "past", 4)) return n_out;
  for (uint32_t o = 0; o < n_out; o++) {
    holo_port_info on;
    holo_session_output_info(s, o, &on);
    if (on.name_len == in->name_len + 3 && !holo_memcmp(on.name, "present", 7) &&
        !holo_memcmp(on.name + 7, in->name + 4, in->name_len - 4))
      return o;
  }
  return n_out;
}

/* The state contract: the model's, else the archive's, else by name --
 * state input X is fed by the output named X_out or X_next, and past... by
 * present... */
static holo_status resolve_contract(holo_gen *g, const holo_causal_model *m, holo_error *err) {
  holo_session *s = g->s;
  uint32_t n_in = holo_session_input_count(s), n_out = holo_session_output_count(s);
  if (m->has_contract) {
    g->c = m->contract;
  } else if (holo_session_state_contract(s, &g->c) != HOLO_OK) {
    return holo_err(err, HOLO_ERR_LIMIT, "generator: the archive's state contract has more than %d ports", HOLO_MAX_STATE);
  } else if (!g->c.n) {
    for (uint32_t i = 0; i < n_in && g->c.n < HOLO_MAX_STATE; i++) {
      if (i == m->token_input || (m->position_input >= 0 && i == (uint32_t)m->position_input)) continue;
      holo_port_info in, on;
      holo_session_input_info(s, i, &in);
      for (uint32_t o = 0; o < n_out; o++) {
        holo_session_output_info(s, o, &on);
        if (on.name_len != in.name_len + 4 && on.name_len != in.name_len + 5) continue;
        if (holo_memcmp(on.name, in.name, in.name_len)) continue;
        const char *suf = on.name + in.name_len;
        if ((on.name_len == in.name_len + 4 && !holo_memcmp(suf, "_out", 4)) ||
            (on.name_len == in.name_len + 5 && !holo_memcmp(suf, "_next", 5))) {
          g->c.input[g->c.n] = i, g->c.output[g->c.n] = o, g->c.n++;
          break;
        }
      }
      if (g->c.n < HOLO_MAX_STATE && !(g->c.n && g->c.input[g->c.n - 1] == i)) {
        uint32_t o = present_of(s, &in);
        if (o < n_out) g->c.input[g->c.n] = i, g->c.output[g->c.n] = o, g->c.n++;
      }
    }
  }
  if (g->c.n > HOLO_MAX_STATE) return holo_err(err, HOLO_ERR_LIMIT, "generator: more than %d state ports", HOLO_MAX_STATE);
  for (uint32_t i = 0; i < n_in; i++) {
    bool known = i == m->token_input || (m->position_input >= 0 && i == (uint32_t)m->position_input);
    for (uint32_t k = 0; k < g->c.n; k++) {
      if (g->c.input[k] == i) {
        if (known) return holo_err(err, HOLO_ERR_STATE, "generator: input %u is both state and token/position", i);
        known = true;
      }
    }
    if (!known) return holo_err(err, HOLO_ERR_STATE, "generator: input %u is neither token, position nor state (give a contract)", i);
  }
  for (uint32_t k = 0; k < g->c.n; k++) {
    holo_port_info vi, vo;
    if (g->c.output[k] >= n_out || g->c.output[k] == m->logits_output)
      return holo_err(err, HOLO_ERR_STATE, "generator: state %u: output %u is invalid", k, g->c.output[k]);
    if (holo_session_input_info(s, g->c.input[k], &vi) != HOLO_OK)
      return holo_err(err, HOLO_ERR_STATE, "generator: state %u: input %u is invalid", k, g->c.input[k]);
    holo_session_output_info(s, g->c.output[k], &vo);
    if (vi.dtype != vo.dtype)
      return holo_err(err, HOLO_ERR_STATE, "generator: state %u: input %u and output %u differ in dtype", k, g->c.input[k],
                      g->c.output[k]);
  }
  return HOLO_OK;
}

holo_status holo_gen_init(holo_gen *g, holo_session *s, const holo_causal_model *m, const holo_input *initial,
                          const holo_allocator *a, holo_error *err) {
  if (!g || !s || !m || !a) return holo_err(err, HOLO_ERR_ARG, "generator: NULL argument");
  holo_memset(g, 0, sizeof *g);
  g->s = s, g->m = *m, g->a = *a;
  uint32_t n_in = holo_session_input_count(s), n_out = holo_session_output_count(s);
  if (m->token_input >= n_in)
    return holo_err(err, HOLO_ERR_ARG, "generator: token input %u does not exist (%u inputs)", m->token_input, n_in);
  if (m->position_input >= 0 && ((uint32_t)m->position_input >= n_in || (uint32_t)m->position_input == m->token_input))
    return holo_err(err, HOLO_ERR_ARG, "generator: position input %d is invalid", m->position_input);
  if (m->logits_output >= n_out)
    return holo_err(err, HOLO_ERR_ARG, "generator: logits output %u does not exist (%u outputs)", m->logits_output,
                    n_out);
  holo_port_info lv;
  holo_session_output_info(s, m->logits_output, &lv);
  if (lv.dtype != HOLO_DT_F32) return holo_err(err, HOLO_ERR_UNSUPPORTED, "generator: logits must be f32");
  holo_status rc = holo_gen_vocab(g, &lv, err);
  if (!rc) rc = holo_gen_token_port(g, err);
  if (rc) return rc;
  if (m->position_input >= 0) {
    holo_port_info v;
    holo_session_input_info(s, (uint32_t)m->position_input, &v);
    size_t n = 0;
    if (v.rank == HOLO_RANK_UNKNOWN || !holo_shape_numel(v.shape, v.rank, &n) || n != 1)
      return holo_err(err, HOLO_ERR_UNSUPPORTED, "generator: position input %d must hold exactly one element",
                      m->position_input);
    if (v.dtype != HOLO_DT_I64 && v.dtype != HOLO_DT_I32 && v.dtype != HOLO_DT_F32)
      return holo_err(err, HOLO_ERR_UNSUPPORTED, "generator: position input %d must be i64, i32 or f32", m->position_input);
  }
  rc = resolve_contract(g, m, err);
  if (rc) return rc;
  if (g->seq > 1 && !g->grow && lv.rank != HOLO_RANK_UNKNOWN) {
    size_t nl = 0;
    if (!holo_shape_numel(lv.shape, lv.rank, &nl) || nl != (size_t)g->seq * g->vocab)
      return holo_err(err, HOLO_ERR_UNSUPPORTED,
                      "generator: a %u-token model needs %u rows of %u logits (one per token), the logits output holds %zu",
                      g->seq, g->seq, g->vocab, nl);
  }
  g->n_state = g->c.n;
  g->rows_pos = UINT32_MAX;
  g->logits = a->alloc(a->ctx, (size_t)g->vocab * 4, 16);
  g->scratch = a->alloc(a->ctx, (size_t)g->vocab * 4, 16);
  g->prev_logits = a->alloc(a->ctx, (size_t)g->vocab * 4, 16);
  g->rows = a->alloc(a->ctx, (size_t)g->vocab * 4 * g->seq, 16);
  g->cap_history = 256;
  g->history = a->alloc(a->ctx, g->cap_history * 4, 16);
  if (!g->logits || !g->scratch || !g->history || !g->prev_logits || !g->rows) {
    holo_gen_free(g);
    return holo_err(err, HOLO_ERR_MEMORY, "generator: out of memory");
  }
  for (uint32_t k = 0; k < g->n_state; k++) {
    holo_status st = initial && initial[k].bytes ? holo_session_intern_input(s, g->c.input[k], &initial[k], D(g->init_state[k]), err)
                                                 : intern_zero(g, g->c.input[k], D(g->init_state[k]), err);
    if (st) {
      for (uint32_t j = 0; j < k; j++) holo_session_release(s, D(g->init_state[j]));
      g->n_state = 0;
      holo_gen_free(g);
      return st;
    }
  }
  for (uint32_t k = 0; k < g->n_state; k++) {
    holo_memcpy(g->state[k], g->init_state[k], 32);
    holo_session_hold(s, D(g->state[k]));
  }
  return HOLO_OK;
}

void holo_gen_free(holo_gen *g) {
  if (!g || !g->a.free) return;
  for (uint32_t k = 0; k < g->n_state; k++) {
    holo_session_release(g->s, D(g->state[k]));
    holo_session_release(g->s, D(g->init_state[k]));
  }
  g->n_state = 0;
  if (g->logits) g->a.free(g->a.ctx, g->logits);
  if (g->scratch) g->a.free(g->a.ctx, g->scratch);
  if (g->history) g->a.free(g->a.ctx, g->history);
  if (g->prev_logits) g->a.free(g->a.ctx, g->prev_logits);
  if (g->rows) g->a.free(g->a.ctx, g->rows);
  g->logits = g->scratch = g->prev_logits = g->rows = 0, g->history = 0;
}

static void set_state(holo_gen *g, uint8_t (*st)[32]) {
  for (uint32_t k = 0; k < g->n_state; k++) holo_session_hold(g->s, CD(st[k]));
  for (uint32_t k = 0; k < g->n_state; k++) holo_session_release(g->s, D(g->state[k]));
  for (uint32_t k = 0; k < g->n_state; k++) holo_memcpy(g->state[k], st[k], 32);
}

void holo_gen_reset(holo_gen *g) {
  set_state(g, g->init_state);
  g->pos = 0;
  g->n_history = 0;
  g->gen_start = 0;
  g->have_logits = false;
  g->rows_n = 0, g->rows_pos = UINT32_MAX;
}

void holo_gen_set_inspector(holo_gen *g, const holo_gen_inspector *in) {
  if (in) g->insp = *in;
  else holo_memset(&g->insp, 0, sizeof g->insp);
}

/* n values (n <= HOLO_GEN_MAX_SEQ) in the port's dtype, interned. */
static holo_status intern_vec(holo_gen *g, uint32_t port, const int64_t *value, uint32_t n, const int64_t *shape,
                              uint32_t rank, holo_digest *out, holo_error *err) {
  holo_port_info info;
  holo_session_input_info(g->s, port, &info);
  uint32_t dt = info.dtype;
  union {
    int64_t i64[HOLO_GEN_MAX_SEQ];
    int32_t i32[HOLO_GEN_MAX_SEQ];
    float f32[HOLO_GEN_MAX_SEQ];
  } u;
  size_t len = (dt == HOLO_DT_I64 ? 8 : 4) * (size_t)n;
  for (uint32_t i = 0; i < n; i++) {
    if (dt == HOLO_DT_I64) u.i64[i] = value[i];
    else if (dt == HOLO_DT_I32) u.i32[i] = (int32_t)value[i];
    else u.f32[i] = (float)value[i];
  }
  holo_input in = {&u, len, shape, rank};
  return holo_session_intern_input(g->s, port, &in, out, err);
}

static holo_status push_history(holo_gen *g, uint32_t token, holo_error *err) {
  if (g->n_history == g->cap_history) {
    if (g->cap_history > UINT32_MAX / 8) return holo_err(err, HOLO_ERR_LIMIT, "generator: history too long");
    uint32_t cap = g->cap_history * 2;
    uint32_t *h = g->a.alloc(g->a.ctx, (size_t)cap * 4, 16);
    if (!h) return holo_err(err, HOLO_ERR_MEMORY, "generator: out of memory (history)");
    holo_memcpy(h, g->history, (size_t)g->n_history * 4);
    g->a.free(g->a.ctx, g->history);
    g->history = h, g->cap_history = cap;
  }
  g->history[g->n_history++] = token;
  return HOLO_OK;
}

/* The label the next state value goes by, held: its computed label (the
 * output entry itself), or its content label (m.content_state). */
static holo_status state_label(holo_gen *g, uint32_t port, holo_digest *out, holo_error *err) {
  if (g->m.content_state) return holo_session_output_content(g->s, port, out, err);
  holo_view v;
  holo_session_output_view(g->s, port, &v);
  if (!holo_label_parse(v.label, HOLO_LABEL_LEN, out) || !holo_session_hold(g->s, out))
    return holo_err(err, HOLO_ERR_STATE, "generator: state output %u is not resident after the step", port);
  return HOLO_OK;
}

holo_status holo_gen_feed(holo_gen *g, uint32_t token, holo_error *err) { return holo_gen_feed_seq(g, &token, 1, err); }

holo_status holo_gen_feed_seq(holo_gen *g, const uint32_t *tokens, uint32_t n, holo_error *err) {
  if (!g || !g->logits) return holo_err(err, HOLO_ERR_ARG, "generator is NULL or freed");
  if (!tokens || n == 0 || n > g->seq)
    return holo_err(err, HOLO_ERR_ARG, "generator: feed 1 to %u tokens per execution (got %u)", g->seq, n);
  /* a growing model takes exactly n tokens; a sequence model K, padded */
  uint32_t span = g->grow ? n : g->seq;
  int64_t tv[HOLO_GEN_MAX_SEQ], one = g->pos, tshape[HOLO_MAX_RANK];
  uint32_t trank;
  holo_gen_token_shape(g, span, tshape, &trank);
  for (uint32_t i = 0; i < span; i++) {
    if (i < n && tokens[i] >= g->vocab)
      return holo_err(err, HOLO_ERR_ARG, "generator: token %u outside the vocabulary (%u)", tokens[i], g->vocab);
    tv[i] = i < n ? tokens[i] : 0; /* padding: its rows are discarded (masked state) */
  }
  holo_status st = HOLO_OK;
  uint32_t h0 = g->n_history;
  for (uint32_t i = 0; i < n && !st; i++) st = push_history(g, 0, err); /* capacity */
  g->n_history = h0;
  if (st) return st;
  holo_digest in[64], tok, pos;
  holo_counters before;
  holo_session_counters(g->s, &before);
  if ((st = intern_vec(g, g->m.token_input, tv, span, tshape, trank, &tok, err))) return st;
  if (g->m.position_input >= 0 && (st = intern_vec(g, (uint32_t)g->m.position_input, &one, 1, 0, 0, &pos, err))) {
    holo_session_release(g->s, &tok);
    return st;
  }
  in[g->m.token_input] = tok;
  if (g->m.position_input >= 0) in[g->m.position_input] = pos;
  for (uint32_t k = 0; k < g->n_state; k++) in[g->c.input[k]] = *D(g->state[k]);
  st = holo_execute_labels(g->s, in, err);
  holo_digest next[HOLO_MAX_STATE];
  uint32_t got = 0;
  while (!st && got < g->n_state) {
    st = state_label(g, g->c.output[got], &next[got], err);
    if (!st) got++;
  }
  if (!st) {
    holo_view v;
    holo_session_output_view(g->s, g->m.logits_output, &v);
    size_t row = (size_t)g->vocab * 4;
    if (v.dtype != HOLO_DT_F32 || v.len < row * span || (g->grow && v.len != row * span))
      st = holo_err(err, HOLO_ERR_STATE, "generator: logits output holds %zu bytes, not %u rows of the vocabulary (%u)",
                    v.len, span, g->vocab);
    else if (span == 1) {
      holo_memcpy(g->prev_logits, g->logits, row);
      g->prev_have = g->have_logits;
      holo_memcpy(g->logits, (const uint8_t *)v.data + v.len - row, row);
      holo_memcpy(g->rows, g->logits, row);
    } else {
      holo_memcpy(g->prev_logits, g->logits, row);
      g->prev_have = g->have_logits;
      holo_memcpy(g->rows, (const uint8_t *)v.data + v.len - row * span, row * n);
      holo_memcpy(g->logits, g->rows + (size_t)(n - 1) * g->vocab, row);
    }
  }
  holo_session_release(g->s, &tok);
  if (g->m.position_input >= 0) holo_session_release(g->s, &pos);
  if (st) {
    for (uint32_t k = 0; k < got; k++) holo_session_release(g->s, &next[k]);
    counters_add(g, &before);
    return st;
  }
  for (uint32_t k = 0; k < g->n_state; k++) {
    holo_session_release(g->s, D(g->state[k]));
    holo_memcpy(g->state[k], next[k].b, 32);
  }
  for (uint32_t i = 0; i < n; i++) g->history[g->n_history++] = tokens[i];
  g->rows_pos = g->pos, g->rows_n = n;
  g->pos += n;
  g->have_logits = true;
  g->stats.steps++;
  g->stats.tokens += n;
  counters_add(g, &before);
  return HOLO_OK;
}

const float *holo_gen_rows(const holo_gen *g, uint32_t i) {
  return g && g->rows && i < g->rows_n ? g->rows + (size_t)i * g->vocab : 0;
}

holo_status holo_gen_rewind(holo_gen *g, uint32_t n, holo_error *err) {
  if (!g || !g->logits) return holo_err(err, HOLO_ERR_ARG, "generator is NULL or freed");
  if (g->grow)
    return holo_err(err, HOLO_ERR_STATE, "generator: a growing-state model cannot rewind (its state holds every fed token)");
  if (!g->m.masked_state && g->seq == 1)
    return holo_err(err, HOLO_ERR_STATE, "generator: rewind needs a model whose state past the position is masked");
  if (n > g->pos || n > g->n_history)
    return holo_err(err, HOLO_ERR_STATE, "generator: cannot rewind %u tokens (%u fed)", n, g->pos);
  if (!n) return HOLO_OK;
  g->pos -= n;
  g->n_history -= n;
  if (g->gen_start > g->n_history) g->gen_start = g->n_history;
  size_t row = (size_t)g->vocab * 4;
  if (g->rows_n && g->pos > g->rows_pos && g->pos <= g->rows_pos + g->rows_n) {
    holo_memcpy(g->logits, g->rows + (size_t)(g->pos - 1 - g->rows_pos) * g->vocab, row);
    g->have_logits = true;
  } else if (g->pos == g->rows_pos) {
    holo_memcpy(g->logits, g->prev_logits, row);
    g->have_logits = g->prev_have;
  } else {
    g->have_logits = false;
  }
  /* rows past the new position are no longer "after" fed tokens */
  if (g->pos < g->rows_pos + g->rows_n) g->rows_n = g->pos > g->rows_pos ? g->pos - g->rows_pos : 0;
  return HOLO_OK;
}

holo_status holo_gen_prefill(holo_gen *g, const uint32_t *tokens, uint32_t n, holo_error *err) {
  if (n && !tokens) return holo_err(err, HOLO_ERR_ARG, "prefill: tokens is NULL");
  if (!g) return holo_err(err, HOLO_ERR_ARG, "prefill: generator is NULL");
  for (uint32_t i = 0; i < n;) {
    uint32_t c = n - i < g->seq ? n - i : g->seq;
    holo_status st = holo_gen_feed_seq(g, tokens + i, c, err);
    if (st) return st;
    i += c;
  }
  g->gen_start = g->n_history;
  return HOLO_OK;
}

holo_status holo_gen_sample(holo_gen *g, holo_sampler *smp, uint32_t *token, holo_error *err) {
  if (!g || !smp || !token) return holo_err(err, HOLO_ERR_ARG, "sample: NULL argument");
  if (!g->have_logits) return holo_err(err, HOLO_ERR_STATE, "sample: no logits yet (prefill at least one token)");
  if (smp->vocab != g->vocab)
    return holo_err(err, HOLO_ERR_ARG, "sample: sampler vocabulary %u differs from the model's %u", smp->vocab, g->vocab);
  holo_memcpy(g->scratch, g->logits, (size_t)g->vocab * 4);
  if (g->insp.intervene) {
    holo_status st = g->insp.intervene(g->insp.ctx, g->pos, g->scratch, g->vocab);
    if (st) return holo_err(err, st, "generator: the intervention hook failed at position %u", g->pos);
  }
  uint32_t start = g->gen_start <= g->n_history ? g->gen_start : g->n_history;
  holo_status st = holo_sampler_sample(smp, g->scratch, g->history, g->n_history, g->history + start,
                                       g->n_history - start, token, err);
  if (st) return st;
  if (g->insp.observe) {
    char labels[HOLO_MAX_STATE][HOLO_LABEL_LEN + 1];
    holo_gen_state_labels(g, labels);
    holo_gen_step_info info = {g->pos, g->scratch, g->vocab, *token, smp->last_prob, smp, g->n_state,
                               (const char(*)[HOLO_LABEL_LEN + 1])labels};
    g->insp.observe(g->insp.ctx, &info);
  }
  return HOLO_OK;
}

holo_status holo_gen_step(holo_gen *g, holo_sampler *smp, uint32_t *token, holo_error *err) {
  holo_status st = holo_gen_sample(g, smp, token, err);
  return st ? st : holo_gen_feed(g, *token, err);
}

holo_status holo_gen_run(holo_gen *g, holo_sampler *smp, const holo_gen_options *o, uint32_t *out, uint32_t cap,
                         uint32_t *n_out, holo_error *err) {
  if (!g || !smp || !o || !n_out) return holo_err(err, HOLO_ERR_ARG, "run: NULL argument");
  *n_out = 0;
  for (uint32_t i = 0; i < o->max_tokens; i++) {
    uint32_t t;
    holo_status st = holo_gen_sample(g, smp, &t, err);
    if (st) return st;
    if (o->stop_token >= 0 && (int64_t)t == o->stop_token) break;
    if ((st = holo_gen_feed(g, t, err))) return st;
    if (out && *n_out < cap) out[*n_out] = t;
    (*n_out)++;
    if (o->on_token && !o->on_token(o->ctx, t, i)) break;
  }
  return HOLO_OK;
}

void holo_gen_state_labels(const holo_gen *g, char (*out)[HOLO_LABEL_LEN + 1]) {
  for (uint32_t k = 0; k < g->n_state; k++) holo_label_render(CD(g->state[k]), out[k]);
}

/* ------------------------------------------------------------ snapshots */

holo_status holo_gen_snapshot_take(holo_gen *g, holo_gen_snapshot *sn, holo_error *err) {
  holo_memset(sn, 0, sizeof *sn);
  sn->logits = g->a.alloc(g->a.ctx, (size_t)g->vocab * 4, 16);
  if (!sn->logits) return holo_err(err, HOLO_ERR_MEMORY, "snapshot: out of memory");
  holo_memcpy(sn->logits, g->logits, (size_t)g->vocab * 4);
  sn->n_state = g->n_state;
  for (uint32_t k = 0; k < g->n_state; k++) {
    holo_memcpy(sn->state[k], g->state[k], 32);
    holo_session_hold(g->s, D(sn->state[k]));
  }
  sn->pos = g->pos, sn->n_history = g->n_history, sn->have_logits = g->have_logits;
  return HOLO_OK;
}

void holo_gen_snapshot_restore(holo_gen *g, const holo_gen_snapshot *sn) {
  set_state(g, (uint8_t(*)[32])sn->state);
  g->pos = sn->pos;
  if (sn->n_history < g->n_history) g->n_history = sn->n_history;
  if (g->gen_start > g->n_history) g->gen_start = g->n_history;
  g->have_logits = sn->have_logits;
  g->rows_n = 0, g->rows_pos = UINT32_MAX;
  holo_memcpy(g->logits, sn->logits, (size_t)g->vocab * 4);
}

void holo_gen_snapshot_free(holo_gen *g, holo_gen_snapshot *sn) {
  for (uint32_t k = 0; k < sn->n_state; k++) holo_session_release(g->s, D(sn->state[k]));
  sn->n_state = 0;
  if (sn->logits) g->a.free(g->a.ctx, sn->logits);
  sn->logits = 0;
}
