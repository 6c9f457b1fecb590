/* Prompt-cache checkpoints (docs/generation.md, "Checkpoints"): a chat of
 * three questions over one system prompt, each prefilled with a checkpoint
 * at the system prompt's end, feeds the system prompt through the model
 * once; every answer equals a cold prefill's. Over the K = 4 sequence model
 * (gen-seq: its executions stop at the checkpoint) and the step graph. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "holo-std.h"
#include "util/holo_fixture.h"
#include "hologram/cpu_backend.h"
#include "hologram/generate.h"

#define V 32
#define NSYS 10 /* not a multiple of K: a chunk ends at the checkpoint */
#define NQ 5
#define NOUT 6


static void gen_open(gfx *f, const char *name) {
  holo_causal_model m;
  holo_causal_model_default(&m);
  m.position_input = 1;
  gfx_open(f, name, 0, &m, 0);
}

/* The system prompt, then question q. */
static void chat_prompt(uint32_t q, uint32_t *p) {
  for (uint32_t i = 0; i < NSYS; i++)
    p[i] = (i * 7 + 3) % V;
  for (uint32_t i = 0; i < NQ; i++)
    p[NSYS + i] = (q * 11 + i * 3 + 1) % V;
}

/* A cold prefill of question q in a fresh session: logits and continuation. */
static void cold(const char *name, uint32_t q, float *logits, uint32_t *out) {
  gfx f;
  gen_open(&f, name);
  uint32_t p[NSYS + NQ];
  chat_prompt(q, p);
  holo_error err = {0};
  assert_int_equal(holo_gen_prefill(&f.g, p, NSYS + NQ, &err), HOLO_OK);
  memcpy(logits, f.g.logits, V * sizeof(float));
  gfx_greedy_feed(&f.g, V, NOUT, out);
  gfx_close(&f);
}

static void chat(const char *name, uint32_t seq) {
  gfx f;
  gen_open(&f, name);
  assert_int_equal(f.g.seq, seq);
  holo_prompt_cache pc;
  holo_error err = {0};
  assert_int_equal(holo_prompt_cache_init(&pc, 8, 0, 0, holo_std_allocator(), &err), HOLO_OK);
  const uint32_t cp[1] = {NSYS};
  for (uint32_t q = 0; q < 3; q++) {
    uint32_t p[NSYS + NQ], reused = 99, out[NOUT], want_out[NOUT];
    float want[V];
    chat_prompt(q, p);
    holo_gen_stats before = f.g.stats;
    assert_int_equal(holo_gen_prefill_checkpointed(&f.g, &pc, p, NSYS + NQ, cp, 1, &reused, &err), HOLO_OK);
    uint64_t fed = f.g.stats.tokens - before.tokens, execs = f.g.stats.steps - before.steps;
    /* the system prompt goes through the model for the first question only */
    assert_int_equal(reused, q ? NSYS : 0);
    assert_int_equal(fed, q ? NQ : NSYS + NQ);
    assert_int_equal(execs, q ? (NQ + seq - 1) / seq : (NSYS + seq - 1) / seq + (NQ + seq - 1) / seq);
    cold(name, q, want, want_out);
    assert_memory_equal(f.g.logits, want, sizeof want);
    gfx_greedy_feed(&f.g, V, NOUT, out);
    assert_memory_equal(out, want_out, sizeof out);
  }
  /* entries: the system prompt and three whole prompts */
  assert_int_equal(pc.stats.inserts, 4);
  assert_int_equal(pc.stats.hits, 2);
  assert_int_equal(pc.stats.tokens_reused, 2 * NSYS);
  holo_prompt_cache_free(&pc, &f.g);
  gfx_close(&f);
}

static void chat_seq_model(void **st) {
  (void)st;
  chat("gen-seq", 4);
}

static void chat_step_graph(void **st) {
  (void)st;
  chat("gen-seq-step", 1);
}

/* Without the checkpoint the questions share nothing (the whole-prompt rule). */
static void without_checkpoint_nothing_shared(void **st) {
  (void)st;
  gfx f;
  gen_open(&f, "gen-seq");
  holo_prompt_cache pc;
  holo_error err = {0};
  assert_int_equal(holo_prompt_cache_init(&pc, 8, 0, 0, holo_std_allocator(), &err), HOLO_OK);
  for (uint32_t q = 0; q < 2; q++) {
    uint32_t p[NSYS + NQ], reused = 99;
    chat_prompt(q, p);
    assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, p, NSYS + NQ, &reused, &err), HOLO_OK);
    assert_int_equal(reused, 0);
  }
  holo_prompt_cache_free(&pc, &f.g);
  gfx_close(&f);
}

/* Checkpoints out of order, zero or past the prompt are argument errors; a
 * checkpoint at the prompt's end is the whole prompt (one entry). */
static void bad_checkpoints_refused(void **st) {
  (void)st;
  gfx f;
  gen_open(&f, "gen-seq");
  holo_prompt_cache pc;
  holo_error err = {0};
  assert_int_equal(holo_prompt_cache_init(&pc, 8, 0, 0, holo_std_allocator(), &err), HOLO_OK);
  uint32_t p[NSYS + NQ], r;
  chat_prompt(0, p);
  const uint32_t down[2] = {8, 4}, same[2] = {4, 4}, zero[1] = {0}, past[1] = {NSYS + NQ + 1},
                 end[1] = {NSYS + NQ};
  assert_int_equal(holo_gen_prefill_checkpointed(&f.g, &pc, p, NSYS + NQ, down, 2, &r, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "ascending"));
  assert_int_equal(holo_gen_prefill_checkpointed(&f.g, &pc, p, NSYS + NQ, same, 2, &r, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_gen_prefill_checkpointed(&f.g, &pc, p, NSYS + NQ, zero, 1, &r, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_gen_prefill_checkpointed(&f.g, &pc, p, NSYS + NQ, past, 1, &r, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_gen_prefill_checkpointed(&f.g, &pc, p, NSYS + NQ, 0, 1, &r, &err), HOLO_ERR_ARG);
  assert_int_equal(pc.stats.inserts, 0);
  assert_int_equal(holo_gen_prefill_checkpointed(&f.g, &pc, p, NSYS + NQ, end, 1, &r, &err), HOLO_OK);
  assert_int_equal(pc.stats.inserts, 1);
  holo_prompt_cache_free(&pc, &f.g);
  gfx_close(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(chat_seq_model),
      cmocka_unit_test(chat_step_graph),
      cmocka_unit_test(without_checkpoint_nothing_shared),
      cmocka_unit_test(bad_checkpoints_refused),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
