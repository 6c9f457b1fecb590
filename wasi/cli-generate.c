/* `holo generate MODEL --prompt TEXT [--seed N] [--max-tokens N] ...`:
 * autoregressive generation over a causal step graph (docs/generation.md).
 * Text maps to tokens byte by byte (a 256-token vocabulary), or through
 * --vocab CHARS (token i = the i-th byte of CHARS). The generated text goes
 * to stdout, a JSON summary line to stderr. With --warm-store DIR the
 * prompt's state is cached in DIR, so a later process starts warm. With
 * --draft DRAFT.holo, speculative decoding (a K-token target verifies the
 * draft's proposals in one execution; greedy, or rejection sampling). With
 * --logprobs [K], a JSON line per token first (cli-logprobs.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-logprobs.h"
#include "holo-cli.h"
#include "holo-std.h"
#include "hologram/cpu_backend.h"
#include "hologram/generate.h"

static const char GEN_USAGE[] =
    "usage: holo generate MODEL.holo --prompt TEXT [options]\n"
    "  --prompt TEXT          the prompt (bytes; or --prompt-tokens 1,2,3)\n"
    "  --vocab CHARS          token i is the i-th byte of CHARS (default: token = byte)\n"
    "  --max-tokens N         default 64\n"
    "  --seed N               sampler seed (default 0)\n"
    "  --greedy | --temperature T | --top-k K | --top-p P | --min-p P\n"
    "  --mirostat TAU [--eta E]\n"
    "  --repetition-penalty R  --frequency-penalty F  --presence-penalty P  --penalty-window N\n"
    "  --regex PATTERN        constrain the output ([a-z ]+ style subset)\n"
    "  --stop-token N         stop at this token (not printed)\n"
    "  --logprobs [K]         before the text, one JSON line per token: its probability and\n"
    "                         log-probability as sampled, the model's raw log-probability, and\n"
    "                         the K (0-64, default 0) most likely tokens (docs/cli.md)\n"
    "  --token-input PORT --position-input PORT --logits-output PORT  (default: 0, 'pos', 0)\n"
    "  --vocab-size N         the model's vocabulary, when the archive's logits shape is not\n"
    "                         static (a decoder exported with dynamic past/present axes)\n"
    "  --warm-store DIR       persist the prompt cache (FileWarmStore)\n"
    "  --warm-store-max-bytes BYTES  --warm-store-max-entries N  its bounds (default 1g, 100000)\n"
    "  --draft DRAFT.holo [--k K]  speculative decoding with this draft model (greedy or sampled)\n"
    "                         (same tokens and ports; K proposals per round, default 3)\n";

static int port_of(holo_session *s, const char *v, bool input, int *out) {
  uint32_t n = input ? holo_session_input_count(s) : holo_session_output_count(s);
  uint64_t k;
  if (cli_parse_u64(v, &k, false) && k < n) return *out = (int)k, 0;
  for (uint32_t i = 0; i < n; i++) {
    holo_port_info pi;
    (input ? holo_session_input_info : holo_session_output_info)(s, i, &pi);
    if (pi.name_len == strlen(v) && !memcmp(pi.name, v, pi.name_len)) return *out = (int)i, 0;
  }
  return cli_fail(CLI_USAGE, "generate: no %s port '%s'", input ? "input" : "output", v);
}

/* The most tokens one call generates (the output buffer is allocated up
 * front). */
#define MAX_TOKENS (1u << 24)

/* Speculative proposals per round: generation/speculative.c's bound. */
#define MAX_K 64

typedef enum { NF_U32, NF_U64, NF_F32 } num_kind;
#define ANY_U64 0x1p64 /* as a bound: up to UINT64_MAX (which a double cannot hold) */
typedef struct num_flag {
  const char *name;
  num_kind kind;
  double lo, hi; /* integers: exact in a double, or hi ANY_U64 */
  bool lo_open, hi_open;
  void *dst;
} num_flag;

static int num_flag_parse(const num_flag *f, const char *v) {
  switch (f->kind) {
  case NF_U32: return cli_flag_u32(f->name, v, (uint32_t)f->lo, (uint32_t)f->hi, f->dst);
  case NF_U64:
    return cli_flag_u64(f->name, v, (uint64_t)f->lo, f->hi >= ANY_U64 ? UINT64_MAX : (uint64_t)f->hi, f->dst);
  default: return cli_flag_f32(f->name, v, f->lo, f->hi, f->lo_open, f->hi_open, f->dst);
  }
}

/* "1,2,3": each a token id below vocab, through the flag parser. */
static int parse_tokens(const char *list, uint32_t vocab, uint32_t *toks, size_t *n) {
  char item[32];
  for (const char *q = list;; q++) {
    size_t len = strcspn(q, ",");
    uint64_t t;
    bool ok = len < sizeof item;
    if (ok) memcpy(item, q, len), item[len] = 0;
    if (!ok || !cli_parse_u64(item, &t, false) || t >= vocab)
      return cli_fail(CLI_USAGE, "--prompt-tokens '%s': expected comma-separated token ids from 0 to %u",
                      list, vocab - 1);
    toks[(*n)++] = (uint32_t)t;
    q += len;
    if (!*q) return 0;
  }
}

/* What the command line asks for. */
typedef struct gen_args {
  const char *file, *prompt, *prompt_tokens, *vocab, *regex, *store_dir, *store_max_bytes_s;
  uint64_t store_max_bytes, store_max_entries; /* 0: the defaults */
  const char *tok_port, *pos_port, *logit_port, *draft_file;
  uint32_t spec_k, max_tokens, vocab_size;
  int64_t stop;     /* < 0: none */
  int32_t logprobs; /* top tokens per --logprobs line; < 0: no lines */
  holo_sampler_config sc;
} gen_args;

/* Everything one run holds; gen_free releases whatever was reached, so each
 * step can stop at its first failure. */
typedef struct gen_ctx {
  holo_backend be;
  holo_file_store fs;
  holo_error err;
  uint8_t *bytes, *dbytes;
  size_t len, dlen;
  holo_session *s, *ds;
  holo_gen g, dg;
  holo_sampler smp;
  holo_prompt_cache pc;
  holo_regex re;
  holo_spec_report rep;
  cli_logprobs lp;
  uint32_t *toks, *out;
  size_t n;   /* prompt tokens */
  uint32_t V; /* tokens that have a byte in tb */
  uint32_t reused, got;
  double t0, t1, t2;
  bool fs_open, g_init, dg_init, smp_init, pc_init;
  uint8_t tb[65536]; /* token -> byte */
} gen_ctx;

/* Parses argv into a; *help: the usage was printed (exit 0). Flags are read
 * left to right, so a bad value before --help fails and one after it is not
 * looked at. */
static int gen_parse(int argc, char **argv, gen_args *a, bool *help) {
  *a = (gen_args){.spec_k = 3, .max_tokens = 64, .stop = -1, .logprobs = -1};
  holo_sampler_config_default(&a->sc);
  holo_sampler_config *sc = &a->sc;
  uint64_t stop_token = UINT64_MAX; /* unset */
  /* Every numeric flag, with the values it accepts (the sampler checks the
   * combination again: holo_sampler_config_check). */
  const num_flag num[] = {
      {"--k", NF_U32, 1, MAX_K, 0, 0, &a->spec_k},
      {"--max-tokens", NF_U32, 0, MAX_TOKENS, 0, 0, &a->max_tokens},
      {"--vocab-size", NF_U32, 1, MAX_TOKENS, 0, 0, &a->vocab_size},
      {"--top-k", NF_U32, 0, UINT32_MAX, 0, 0, &sc->top_k},
      {"--penalty-window", NF_U32, 0, UINT32_MAX, 0, 0, &sc->penalty.window},
      {"--stop-token", NF_U64, 0, UINT32_MAX, 0, 0, &stop_token},
      {"--seed", NF_U64, 0, ANY_U64, 0, 0, &sc->seed},
      {"--warm-store-max-entries", NF_U64, 1, HOLO_FILE_STORE_ENTRIES_LIMIT, 0, 0, &a->store_max_entries},
      {"--temperature", NF_F32, 0, HUGE_VAL, 0, 0, &sc->temperature},
      {"--top-p", NF_F32, 0, 1, 1, 0, &sc->top_p},
      {"--min-p", NF_F32, 0, 1, 0, 1, &sc->min_p},
      {"--mirostat", NF_F32, 0, HUGE_VAL, 1, 0, &sc->mirostat_tau},
      {"--eta", NF_F32, 0, 1, 1, 0, &sc->mirostat_eta},
      {"--repetition-penalty", NF_F32, 0, HUGE_VAL, 1, 0, &sc->penalty.repetition},
      {"--frequency-penalty", NF_F32, -HUGE_VAL, HUGE_VAL, 0, 0, &sc->penalty.frequency},
      {"--presence-penalty", NF_F32, -HUGE_VAL, HUGE_VAL, 0, 0, &sc->penalty.presence},
  };
  const struct {
    const char *name;
    const char **dst;
  } str[] = {{"--prompt", &a->prompt},
             {"--prompt-tokens", &a->prompt_tokens},
             {"--vocab", &a->vocab},
             {"--regex", &a->regex},
             {"--warm-store", &a->store_dir},
             {"--warm-store-max-bytes", &a->store_max_bytes_s},
             {"--draft", &a->draft_file},
             {"--token-input", &a->tok_port},
             {"--position-input", &a->pos_port},
             {"--logits-output", &a->logit_port}};
  int rc = 0;
  for (int i = 2; i < argc; i++) {
    const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : 0;
    if (!strcmp(f, "--help") || !strcmp(f, "-h")) {
      fputs(GEN_USAGE, stdout);
      *help = true;
      return 0;
    }
    if (f[0] != '-') {
      if (a->file) return cli_fail(CLI_USAGE, "generate: more than one MODEL given ('%s')", f);
      a->file = f;
      continue;
    }
    if (!strcmp(f, "--greedy")) {
      sc->kind = HOLO_SAMPLER_GREEDY;
      continue;
    }
    if (!strcmp(f, "--logprobs")) { /* K is optional: taken only if the next word is a number */
      uint32_t k = 0;
      if (v && v[0] >= '0' && v[0] <= '9') {
        if ((rc = cli_flag_u32(f, v, 0, HOLO_LOGPROBS_MAX_TOP, &k))) return rc;
        i++;
      }
      a->logprobs = (int32_t)k;
      continue;
    }
    if (!v) return cli_fail(CLI_USAGE, "generate: %s needs a value", f);
    i++;
    const num_flag *nf = 0;
    for (size_t k = 0; k < sizeof num / sizeof num[0] && !nf; k++)
      if (!strcmp(f, num[k].name)) nf = &num[k];
    const char **sv = 0;
    for (size_t k = 0; k < sizeof str / sizeof str[0] && !sv && !nf; k++)
      if (!strcmp(f, str[k].name)) sv = str[k].dst;
    if (!nf && !sv) return cli_fail(CLI_USAGE, "generate: unknown option '%s' (see holo generate --help)", f);
    if (sv)
      *sv = v;
    else if ((rc = num_flag_parse(nf, v)))
      return rc;
    if (!strcmp(f, "--mirostat")) sc->kind = HOLO_SAMPLER_MIROSTAT_V2;
  }
  if (stop_token != UINT64_MAX) a->stop = (int64_t)stop_token;
  if (a->store_max_bytes_s && (rc = cli_flag_bytes("--warm-store-max-bytes", a->store_max_bytes_s, &a->store_max_bytes)))
    return rc;
  if ((a->store_max_bytes || a->store_max_entries) && !a->store_dir)
    return cli_fail(CLI_USAGE, "generate: --warm-store-max-bytes/--warm-store-max-entries bound a warm store: give "
                               "--warm-store DIR");
  if (!a->file) return cli_fail(CLI_USAGE, "generate: no MODEL given (see holo generate --help)");
  if (!a->prompt && !a->prompt_tokens)
    return cli_fail(CLI_USAGE, "generate: give --prompt TEXT or --prompt-tokens LIST");
  if (a->draft_file && (sc->kind == HOLO_SAMPLER_MIROSTAT_V2 || a->regex || a->logprobs >= 0))
    return cli_fail(CLI_USAGE, "generate: --draft takes --greedy or a temperature/top-k/top-p sampler (no "
                               "--mirostat, no --regex, no --logprobs)");
  return 0;
}

/* An archive the runtime refuses is exit 2 (CLI_INPUT would name the
 * user's tensors, of which there are none here). */
static int load_fail(const char *file, const holo_error *err, holo_status st) {
  return holo_cli_fail(file, err, cli_exit_code(st) == CLI_INPUT ? CLI_ARCHIVE : cli_exit_code(st));
}

/* Reads the model and loads its session, over the warm store if one is
 * given. */
static int gen_load(gen_ctx *c, const gen_args *a) {
  int rc = cli_read_file(a->file, CLI_ARCHIVE, &c->bytes, &c->len);
  if (rc) return rc;
  holo_options opt = {holo_std_allocator(), 0, 0, 0};
  if (a->store_dir) {
    if ((rc = cli_open_store(&c->fs, a->store_dir, a->store_max_bytes, a->store_max_entries))) return rc;
    c->fs_open = true;
    opt.warm_store = &c->fs.store;
  }
  holo_status st = holo_session_load(c->bytes, c->len, &c->be, &opt, &c->s, &c->err);
  return st ? load_fail(a->file, &c->err, st) : 0;
}

/* The causal model's ports: as named on the command line, else the
 * defaults (token input 0, logits output 0, the first input named like a
 * position, if any). */
static int gen_ports(holo_session *s, const gen_args *a, holo_causal_model *m) {
  holo_causal_model_default(m);
  m->vocab = a->vocab_size;
  int p, rc;
  if (a->tok_port) {
    if ((rc = port_of(s, a->tok_port, true, &p))) return rc;
    m->token_input = (uint32_t)p;
  }
  if (a->logit_port) {
    if ((rc = port_of(s, a->logit_port, false, &p))) return rc;
    m->logits_output = (uint32_t)p;
  }
  if (a->pos_port) {
    if ((rc = port_of(s, a->pos_port, true, &p))) return rc;
    m->position_input = p;
    return 0;
  }
  static const char *NAMES[] = {"pos", "position", "position_ids", 0};
  for (uint32_t i = 0; i < holo_session_input_count(s) && m->position_input < 0; i++) {
    holo_port_info pi;
    holo_session_input_info(s, i, &pi);
    for (int k = 0; NAMES[k]; k++)
      if (pi.name_len == strlen(NAMES[k]) && !memcmp(pi.name, NAMES[k], pi.name_len))
        m->position_input = (int32_t)i;
  }
  return 0;
}

/* The generator over the session, and the draft's (same ports as the
 * target; rolled back by snapshot) when --draft is given. */
static int gen_build(gen_ctx *c, const gen_args *a) {
  holo_causal_model m;
  int rc = gen_ports(c->s, a, &m);
  if (rc) return rc;
  holo_status st = holo_gen_init(&c->g, c->s, &m, 0, holo_std_allocator(), &c->err);
  if (st) return holo_cli_fail(a->file, &c->err, cli_exit_code(st));
  c->g_init = true;
  if (!a->draft_file) return 0;
  if ((rc = cli_read_file(a->draft_file, CLI_ARCHIVE, &c->dbytes, &c->dlen))) return rc;
  holo_options dopt = {holo_std_allocator(), 0, 0, 0};
  if ((st = holo_session_load(c->dbytes, c->dlen, &c->be, &dopt, &c->ds, &c->err)))
    return load_fail(a->draft_file, &c->err, st);
  if ((st = holo_gen_init(&c->dg, c->ds, &m, 0, holo_std_allocator(), &c->err)))
    return holo_cli_fail(a->draft_file, &c->err, cli_exit_code(st));
  c->dg_init = true;
  return 0;
}

/* The token <-> byte table and the prompt as tokens. */
static int gen_prompt(gen_ctx *c, const gen_args *a) {
  const char *vocab = a->vocab;
  uint32_t V = c->g.vocab, nv = vocab ? (uint32_t)strlen(vocab) : 0;
  if (!vocab && V < 256 && !a->prompt_tokens)
    return cli_fail(CLI_USAGE,
                    "generate: the vocabulary has %u tokens; give --vocab CHARS or --prompt-tokens", V);
  if (V > sizeof c->tb) V = sizeof c->tb;
  for (uint32_t t = 0; t < V; t++)
    c->tb[t] = vocab ? (t < nv ? (uint8_t)vocab[t] : '?') : (uint8_t)t;
  c->V = V;
  int rc;
  if (a->prompt_tokens) {
    c->toks = malloc((strlen(a->prompt_tokens) / 2 + 2) * 4);
    if ((rc = parse_tokens(a->prompt_tokens, c->g.vocab, c->toks, &c->n))) return rc;
  } else {
    size_t pl = strlen(a->prompt);
    c->toks = malloc((pl + 1) * 4);
    for (size_t i = 0; i < pl; i++) {
      uint8_t ch = (uint8_t)a->prompt[i];
      if (!vocab) {
        c->toks[c->n++] = ch;
        continue;
      }
      const char *f = memchr(vocab, ch, nv);
      if (!f) return cli_fail(CLI_INPUT, "generate: prompt byte '%c' is not in --vocab", ch);
      c->toks[c->n++] = (uint32_t)(f - vocab);
    }
  }
  return c->n ? 0 : cli_fail(CLI_USAGE, "generate: the prompt is empty");
}

/* The sampler, masked by --regex when given. */
static int gen_sampler(gen_ctx *c, const gen_args *a) {
  if (holo_sampler_init(&c->smp, &a->sc, c->g.vocab, holo_std_allocator(), &c->err))
    return cli_fail(CLI_USAGE, "generate: %s", c->err.message);
  c->smp_init = true;
  if (!a->regex) return 0;
  if (holo_regex_compile(&c->re, a->regex, c->tb, 0, c->g.vocab, a->stop, &c->err))
    return cli_fail(CLI_USAGE, "generate: %s", c->err.message);
  holo_sampler_set_mask(&c->smp, holo_regex_mask, &c->re);
  return 0;
}

/* Prefill (through the prompt cache over the warm store, if any), then
 * decode: sampled, or speculative with the draft. */
static holo_status gen_decode(gen_ctx *c, const gen_args *a) {
  holo_status st;
  c->t0 = cli_now_ms();
  if (a->store_dir) {
    if ((st = holo_prompt_cache_init(&c->pc, 16, 0, &c->fs.store, holo_std_allocator(), &c->err))) return st;
    c->pc_init = true;
    st = holo_gen_prefill_cached(&c->g, &c->pc, c->toks, (uint32_t)c->n, &c->reused, &c->err);
  } else {
    st = holo_gen_prefill(&c->g, c->toks, (uint32_t)c->n, &c->err);
  }
  if (st) return st;
  c->t1 = cli_now_ms();
  c->out = malloc(((size_t)a->max_tokens + 1) * 4);
  holo_gen_options go = {a->max_tokens, a->stop, 0, 0};
  if (c->dg_init) {
    if ((st = holo_gen_prefill(&c->dg, c->toks, (uint32_t)c->n, &c->err))) return st;
    /* greedy verifies by argmax; any other sampler by rejection sampling */
    if (a->sc.kind == HOLO_SAMPLER_GREEDY || a->sc.temperature == 0)
      st = holo_speculative_run(&c->g, &c->dg, a->spec_k, &go, c->out, a->max_tokens, &c->got, &c->rep, &c->err);
    else
      st = holo_speculative_sample_run(&c->g, &c->dg, a->spec_k, &c->smp, &go, c->out, a->max_tokens, &c->got,
                                       &c->rep, &c->err);
  } else {
    if (a->logprobs >= 0) {
      cli_logprobs_attach(&c->lp, &c->g, c->tb, c->V, (uint32_t)a->logprobs);
      go.on_token = cli_logprobs_print, go.ctx = &c->lp;
    }
    st = holo_gen_run(&c->g, &c->smp, &go, c->out, a->max_tokens, &c->got, &c->err);
    if (!st && c->lp.failed) c->err = c->lp.err, st = c->lp.status;
  }
  c->t2 = cli_now_ms();
  return st;
}

/* The text on stdout, the JSON summary on stderr. */
static void gen_print(const gen_ctx *c, const gen_args *a) {
  for (uint32_t i = 0; i < c->got; i++)
    putchar(c->out[i] < c->V ? c->tb[c->out[i]] : '?');
  putchar('\n');
  double t0 = c->t0, t1 = c->t1, t2 = c->t2;
  uint32_t got = c->got;
  fprintf(stderr,
          "{\"prompt_tokens\": %zu, \"prompt_reused\": %u, \"generated\": %u, \"prefill_ms\": %.3f, "
          "\"decode_ms\": %.3f, "
          "\"tokens_per_s\": %.1f, \"steps\": %llu, \"dispatches\": %llu, \"memo_hits\": %llu",
          c->n, c->reused, got, t1 - t0, t2 - t1, got ? got / ((t2 - t1) / 1e3) : 0.0,
          (unsigned long long)c->g.stats.steps, (unsigned long long)c->g.stats.dispatches,
          (unsigned long long)c->g.stats.memo_hits);
  const holo_spec_report *r = &c->rep;
  if (c->dg_init)
    fprintf(stderr,
            ", \"speculative\": {\"k\": %u, \"proposed\": %llu, \"accepted\": %llu, \"acceptance\": %.3f, "
            "\"rounds\": %llu, "
            "\"target_steps\": %llu, \"draft_steps\": %llu}",
            a->spec_k, (unsigned long long)r->proposed, (unsigned long long)r->accepted, r->acceptance,
            (unsigned long long)r->rounds, (unsigned long long)r->target_steps,
            (unsigned long long)r->draft_steps);
  fputs("}\n", stderr);
}

static void gen_free(gen_ctx *c) {
  if (c->pc_init) holo_prompt_cache_free(&c->pc, &c->g);
  if (c->smp_init) holo_sampler_free(&c->smp);
  if (c->g_init) holo_gen_free(&c->g);
  if (c->dg_init) holo_gen_free(&c->dg);
  holo_session_free(c->ds);
  free(c->dbytes);
  holo_session_free(c->s);
  if (c->fs_open) holo_file_store_close(&c->fs);
  free(c->toks);
  free(c->out);
  free(c->bytes);
}

int cli_generate_main(int argc, char **argv) {
  gen_args a;
  bool help = false;
  int rc = gen_parse(argc, argv, &a, &help);
  if (rc || help) return rc;
  /* Static: its ~70 KiB (token table, regex class bitmaps, file store) stay
   * off the stack; zeroed each call, since gen_free reads its flags. */
  static gen_ctx c;
  memset(&c, 0, sizeof c);
  holo_cpu_backend_init(&c.be);
  if (!(rc = gen_load(&c, &a)) && !(rc = gen_build(&c, &a)) && !(rc = gen_prompt(&c, &a)) &&
      !(rc = gen_sampler(&c, &a))) {
    holo_status st = gen_decode(&c, &a);
    if (st)
      rc = holo_cli_fail(a.file, &c.err, cli_exit_code(st));
    else
      gen_print(&c, &a);
  }
  gen_free(&c);
  return rc;
}
