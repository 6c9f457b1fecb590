/* `holo generate MODEL --prompt TEXT [--seed N] [--max-tokens N] ...`:
 * autoregressive generation over a causal step graph (docs/generation.md).
 * Text maps to tokens byte by byte (a 256-token vocabulary), or through
 * --vocab CHARS (token i = the i-th byte of CHARS). The generated text goes
 * to stdout, a JSON summary line to stderr. With --warm-store DIR the
 * prompt's state is cached in DIR, so a later process starts warm. With
 * --draft DRAFT.holo, greedy speculative decoding (a K-token target verifies
 * the draft's proposals in one execution). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hologram/cpu_backend.h"
#include "hologram/generate.h"
#include "holo-cli.h"
#include "holo-std.h"

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
    "  --token-input PORT --position-input PORT --logits-output PORT  (default: 0, 'pos', 0)\n"
    "  --warm-store DIR       persist the prompt cache (FileWarmStore)\n"
    "  --draft DRAFT.holo [--k K]  greedy speculative decoding with this draft model\n"
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

int cli_generate_main(int argc, char **argv) {
  const char *file = 0, *prompt = 0, *prompt_tokens = 0, *vocab = 0, *regex = 0, *store_dir = 0;
  const char *tok_port = 0, *pos_port = 0, *logit_port = 0, *draft_file = 0;
  uint32_t spec_k = 3;
  holo_sampler_config sc;
  holo_sampler_config_default(&sc);
  uint32_t max_tokens = 64;
  int64_t stop = -1;
  uint64_t stop_token = UINT64_MAX; /* unset */
  /* Every numeric flag, with the values it accepts (the sampler checks the
   * combination again: holo_sampler_config_check). */
  const num_flag num[] = {
      {"--k", NF_U32, 1, MAX_K, 0, 0, &spec_k},
      {"--max-tokens", NF_U32, 0, MAX_TOKENS, 0, 0, &max_tokens},
      {"--top-k", NF_U32, 0, UINT32_MAX, 0, 0, &sc.top_k},
      {"--penalty-window", NF_U32, 0, UINT32_MAX, 0, 0, &sc.penalty.window},
      {"--stop-token", NF_U64, 0, UINT32_MAX, 0, 0, &stop_token},
      {"--seed", NF_U64, 0, ANY_U64, 0, 0, &sc.seed},
      {"--temperature", NF_F32, 0, HUGE_VAL, 0, 0, &sc.temperature},
      {"--top-p", NF_F32, 0, 1, 1, 0, &sc.top_p},
      {"--min-p", NF_F32, 0, 1, 0, 1, &sc.min_p},
      {"--mirostat", NF_F32, 0, HUGE_VAL, 1, 0, &sc.mirostat_tau},
      {"--eta", NF_F32, 0, 1, 1, 0, &sc.mirostat_eta},
      {"--repetition-penalty", NF_F32, 0, HUGE_VAL, 1, 0, &sc.penalty.repetition},
      {"--frequency-penalty", NF_F32, -HUGE_VAL, HUGE_VAL, 0, 0, &sc.penalty.frequency},
      {"--presence-penalty", NF_F32, -HUGE_VAL, HUGE_VAL, 0, 0, &sc.penalty.presence},
  };
  const struct {
    const char *name;
    const char **dst;
  } str[] = {
      {"--prompt", &prompt},        {"--prompt-tokens", &prompt_tokens}, {"--vocab", &vocab},
      {"--regex", &regex},          {"--warm-store", &store_dir},        {"--draft", &draft_file},
      {"--token-input", &tok_port}, {"--position-input", &pos_port},     {"--logits-output", &logit_port}};
  int rc = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : 0;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(GEN_USAGE, stdout);
      return 0;
    }
    if (a[0] != '-') {
      if (file) return cli_fail(CLI_USAGE, "generate: more than one MODEL given ('%s')", a);
      file = a;
      continue;
    }
    if (!strcmp(a, "--greedy")) {
      sc.kind = HOLO_SAMPLER_GREEDY;
      continue;
    }
    if (!v) return cli_fail(CLI_USAGE, "generate: %s needs a value", a);
    i++;
    const num_flag *nf = 0;
    for (size_t k = 0; k < sizeof num / sizeof num[0] && !nf; k++)
      if (!strcmp(a, num[k].name)) nf = &num[k];
    const char **sv = 0;
    for (size_t k = 0; k < sizeof str / sizeof str[0] && !sv && !nf; k++)
      if (!strcmp(a, str[k].name)) sv = str[k].dst;
    if (!nf && !sv) return cli_fail(CLI_USAGE, "generate: unknown option '%s' (see holo generate --help)", a);
    if (sv)
      *sv = v;
    else if ((rc = num_flag_parse(nf, v)))
      return rc;
    if (!strcmp(a, "--mirostat")) sc.kind = HOLO_SAMPLER_MIROSTAT_V2;
  }
  if (stop_token != UINT64_MAX) stop = (int64_t)stop_token;
  if (!file) return cli_fail(CLI_USAGE, "generate: no MODEL given (see holo generate --help)");
  if (!prompt && !prompt_tokens) return cli_fail(CLI_USAGE, "generate: give --prompt TEXT or --prompt-tokens LIST");
  if (draft_file && (sc.kind != HOLO_SAMPLER_GREEDY || regex))
    return cli_fail(CLI_USAGE, "generate: --draft is greedy speculative decoding: give --greedy (and no --regex)");

  uint8_t *bytes;
  size_t len;
  rc = cli_read_file(file, CLI_ARCHIVE, &bytes, &len);
  if (rc) return rc;
  holo_backend be;
  holo_cpu_backend_init(&be);
  static holo_file_store fs;
  bool fs_open = false;
  holo_options opt = {holo_std_allocator(), 0, 0, 0};
  holo_error err = {0};
  holo_session *s = 0;
  uint32_t *toks = 0, *out = 0;
  holo_gen g;
  bool g_init = false;
  holo_sampler smp;
  bool smp_init = false;
  holo_prompt_cache pc;
  bool pc_init = false;
  holo_regex re;
  uint8_t *dbytes = 0;
  size_t dlen = 0;
  holo_session *ds = 0;
  holo_gen dg;
  bool dg_init = false;
  holo_spec_report rep = {0};
  if (store_dir) {
    if ((rc = cli_ensure_dir(store_dir, CLI_INPUT, "warm store"))) goto out;
    if (holo_file_store_open(&fs, store_dir, &err)) {
      rc = cli_fail(CLI_INPUT, "%s", err.message);
      goto out;
    }
    fs_open = true;
    opt.warm_store = &fs.store;
  }
  holo_status st = holo_session_load(bytes, len, &be, &opt, &s, &err);
  if (st) {
    rc = holo_cli_fail(file, &err, cli_exit_code(st) == CLI_INPUT ? CLI_ARCHIVE : cli_exit_code(st));
    goto out;
  }
  holo_causal_model m;
  holo_causal_model_default(&m);
  int p;
  if (tok_port) {
    if ((rc = port_of(s, tok_port, true, &p))) goto out;
    m.token_input = (uint32_t)p;
  }
  if (logit_port) {
    if ((rc = port_of(s, logit_port, false, &p))) goto out;
    m.logits_output = (uint32_t)p;
  }
  if (pos_port) {
    if ((rc = port_of(s, pos_port, true, &p))) goto out;
    m.position_input = p;
  } else {
    static const char *NAMES[] = {"pos", "position", "position_ids", 0};
    for (uint32_t i = 0; i < holo_session_input_count(s) && m.position_input < 0; i++) {
      holo_port_info pi;
      holo_session_input_info(s, i, &pi);
      for (int k = 0; NAMES[k]; k++)
        if (pi.name_len == strlen(NAMES[k]) && !memcmp(pi.name, NAMES[k], pi.name_len)) m.position_input = (int32_t)i;
    }
  }
  if ((st = holo_gen_init(&g, s, &m, 0, holo_std_allocator(), &err))) {
    rc = holo_cli_fail(file, &err, cli_exit_code(st));
    goto out;
  }
  g_init = true;
  if (draft_file) { /* same ports as the target; rolled back by snapshot */
    if ((rc = cli_read_file(draft_file, CLI_ARCHIVE, &dbytes, &dlen))) goto out;
    holo_options dopt = {holo_std_allocator(), 0, 0, 0};
    if ((st = holo_session_load(dbytes, dlen, &be, &dopt, &ds, &err))) {
      rc = holo_cli_fail(draft_file, &err, cli_exit_code(st) == CLI_INPUT ? CLI_ARCHIVE : cli_exit_code(st));
      goto out;
    }
    if ((st = holo_gen_init(&dg, ds, &m, 0, holo_std_allocator(), &err))) {
      rc = holo_cli_fail(draft_file, &err, cli_exit_code(st));
      goto out;
    }
    dg_init = true;
  }
  /* token <-> byte */
  static uint8_t tb[65536];
  uint32_t V = g.vocab, nv = vocab ? (uint32_t)strlen(vocab) : 0;
  if (!vocab && V < 256) {
    rc = cli_fail(CLI_USAGE, "generate: the vocabulary has %u tokens; give --vocab CHARS or --prompt-tokens", V);
    goto out;
  }
  if (V > sizeof tb) V = sizeof tb;
  for (uint32_t t = 0; t < V; t++) tb[t] = vocab ? (t < nv ? (uint8_t)vocab[t] : '?') : (uint8_t)t;
  size_t n = 0;
  if (prompt_tokens) {
    toks = malloc((strlen(prompt_tokens) / 2 + 2) * 4);
    if ((rc = parse_tokens(prompt_tokens, g.vocab, toks, &n))) goto out;
  } else {
    size_t pl = strlen(prompt);
    toks = malloc((pl + 1) * 4);
    for (size_t i = 0; i < pl; i++) {
      uint8_t ch = (uint8_t)prompt[i];
      if (!vocab) {
        toks[n++] = ch;
        continue;
      }
      const char *f = memchr(vocab, ch, nv);
      if (!f) {
        rc = cli_fail(CLI_INPUT, "generate: prompt byte '%c' is not in --vocab", ch);
        goto out;
      }
      toks[n++] = (uint32_t)(f - vocab);
    }
  }
  if (!n) {
    rc = cli_fail(CLI_USAGE, "generate: the prompt is empty");
    goto out;
  }
  if ((st = holo_sampler_init(&smp, &sc, g.vocab, holo_std_allocator(), &err))) {
    rc = cli_fail(CLI_USAGE, "generate: %s", err.message);
    goto out;
  }
  smp_init = true;
  if (regex) {
    if ((st = holo_regex_compile(&re, regex, tb, 0, g.vocab, stop, &err))) {
      rc = cli_fail(CLI_USAGE, "generate: %s", err.message);
      goto out;
    }
    holo_sampler_set_mask(&smp, holo_regex_mask, &re);
  }
  double t0 = cli_now_ms();
  uint32_t reused = 0;
  if (store_dir) {
    if ((st = holo_prompt_cache_init(&pc, 16, 0, &fs.store, holo_std_allocator(), &err))) goto fail;
    pc_init = true;
    st = holo_gen_prefill_cached(&g, &pc, toks, (uint32_t)n, &reused, &err);
  } else {
    st = holo_gen_prefill(&g, toks, (uint32_t)n, &err);
  }
  if (st) goto fail;
  double t1 = cli_now_ms();
  out = malloc(((size_t)max_tokens + 1) * 4);
  uint32_t got = 0;
  holo_gen_options go = {max_tokens, stop, 0, 0};
  if (dg_init) {
    if ((st = holo_gen_prefill(&dg, toks, (uint32_t)n, &err))) goto fail;
    if ((st = holo_speculative_run(&g, &dg, spec_k, &go, out, max_tokens, &got, &rep, &err))) goto fail;
  } else if ((st = holo_gen_run(&g, &smp, &go, out, max_tokens, &got, &err))) {
    goto fail;
  }
  double t2 = cli_now_ms();
  for (uint32_t i = 0; i < got; i++) putchar(out[i] < V ? tb[out[i]] : '?');
  putchar('\n');
  fprintf(stderr,
          "{\"prompt_tokens\": %zu, \"prompt_reused\": %u, \"generated\": %u, \"prefill_ms\": %.3f, \"decode_ms\": %.3f, "
          "\"tokens_per_s\": %.1f, \"steps\": %llu, \"dispatches\": %llu, \"memo_hits\": %llu",
          n, reused, got, t1 - t0, t2 - t1, got ? got / ((t2 - t1) / 1e3) : 0.0, (unsigned long long)g.stats.steps,
          (unsigned long long)g.stats.dispatches, (unsigned long long)g.stats.memo_hits);
  if (dg_init)
    fprintf(stderr,
            ", \"speculative\": {\"k\": %u, \"proposed\": %llu, \"accepted\": %llu, \"acceptance\": %.3f, \"rounds\": %llu, "
            "\"target_steps\": %llu, \"draft_steps\": %llu}",
            spec_k, (unsigned long long)rep.proposed, (unsigned long long)rep.accepted, rep.acceptance,
            (unsigned long long)rep.rounds, (unsigned long long)rep.target_steps, (unsigned long long)rep.draft_steps);
  fputs("}\n", stderr);
  goto out;
fail:
  rc = holo_cli_fail(file, &err, cli_exit_code(st));
out:
  if (pc_init) holo_prompt_cache_free(&pc, &g);
  if (smp_init) holo_sampler_free(&smp);
  if (g_init) holo_gen_free(&g);
  if (dg_init) holo_gen_free(&dg);
  holo_session_free(ds);
  free(dbytes);
  holo_session_free(s);
  if (fs_open) holo_file_store_close(&fs);
  free(toks);
  free(out);
  free(bytes);
  return rc;
}
