/* `holo`: the command-line program, native (std) and WASI (holo.wasm).
 *   wasmtime run --dir . holo.wasm run model.holo --input x.npy -o out
 * docs/cli.md is its manual. Exit codes: 0 ok, 1 usage, 2 bad archive,
 * 3 bad input, 4 resource limit; a failure is one line on stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hologram/cpu_backend.h"
#include "hologram/refine.h"
#include "holo-cli.h"
#include "holo-std.h"

static const char USAGE[] =
    "usage: holo VERB FILE.holo [options]     (WASI: wasmtime run --dir . holo.wasm VERB ...)\n"
    "verbs:\n"
    "  info FILE     ports, dtypes, shapes, kernel count, archive label, backend, ops, metadata\n"
    "  dump FILE     the archive as graph JSON\n"
    "  run FILE      execute once; inputs from files (default: a generated pattern)\n"
    "  refine FILE   run a refinement plan; prints the report as JSON\n"
    "  bench FILE    median of N full executions (distinct inputs) and of N memo hits, as JSON\n"
    "  verify FILE   recompute every constant's label from its bytes\n"
    "  generate FILE --prompt TEXT  sample tokens from a causal step graph (holo generate --help)\n"
    "  convert MODEL.onnx -o FILE.holo  ONNX -> .holo: the npm package's holo only (the converter is JS)\n"
    "inputs and outputs (PORT is a port name or index; without PORT=, --input and --output\n"
    "go in port order and --input-dtype/--shape apply to the latest --input):\n"
    "  -i, --input [PORT=]FILE       a .npy file (v1-3, little-endian, C order) or raw bytes\n"
    "  --input-dtype [PORT=]DTYPE    raw files: float32 float64 float16 int8 int16 int32 int64\n"
    "                                uint8 uint16 uint32 uint64 bool (or f4 f8 i8 i4 u1 b1 ...)\n"
    "                                (also --dtype)\n"
    "  --shape [PORT=]D0,D1,...      raw files and generated inputs: the shape (symbolic dims)\n"
    "  --output [PORT=]FILE          write that output as .npy\n"
    "  -o, --output-dir DIR          write every output as DIR/<output name>.npy\n"
    "  --print                       print every output value (default: the first 16)\n"
    "session:\n"
    "  --warm-store DIR              FileWarmStore: DIR/sha256-<hex>.hws, one record per label\n"
    "  --warm-store-max-bytes BYTES  its bound on record bytes (default 1g; suffix k, m, g);\n"
    "                                least recently used records are evicted first\n"
    "  --warm-store-max-entries N    its bound on records (default 100000)\n"
    "  --trust-store                 take warm-store records without re-hashing them\n"
    "  --memory-budget BYTES         bound on transient memory (suffix k, m, g: KiB, MiB, GiB)\n"
    "  --weight-budget BYTES         read constants from the file as needed, at most BYTES resident\n"
    "  --variant V                   refuse to run unless the kernel variant built in is V\n"
    "                                (scalar, simd128, relaxed; holo info prints it)\n"
    "bench:  --repeat N (default 20)\n"
    "refine: --passes N (default 8)  --validator stable-labels|stable-bytes (repeatable)\n"
    "        --retry N (RetryPass: up to N extra passes)  --state-in PORT --state-out PORT (pairs)\n"
    "exit codes: 0 ok, 1 usage, 2 bad archive, 3 bad input, 4 resource limit\n";

static const char CONVERT_USAGE[] =
    "usage: holo convert MODEL.onnx -o FILE.holo [--shape NAME=D0,D1,...]... [--no-fold] [--no-fuse] [--progress]\n"
    "The ONNX converter is JavaScript (compiler/): this verb runs in the npm package's holo\n"
    "(npx hologram-exec convert ..., or node bindings-js/bin/holo.js convert ... in the repository);\n"
    "this program runs archives only. See docs/converter.md.\n";

static int add_spec(cli *c, cli_spec_kind kind, const char *raw, int *latest_input) {
  if (c->n_specs >= CLI_MAX_SPECS) return cli_fail(CLI_USAGE, "too many per-port options (at most %d)", CLI_MAX_SPECS);
  cli_spec *sp = &c->specs[c->n_specs];
  memset(sp, 0, sizeof *sp);
  sp->kind = kind;
  sp->raw = raw;
  if (kind == SPEC_DTYPE || kind == SPEC_SHAPE) {
    sp->seq = *latest_input;
  } else {
    /* positional index among unprefixed specs of this kind; fixed up by
     * cli_resolve_specs, which knows the port names */
    int n = 0;
    for (int k = 0; k < c->n_specs; k++) n += c->specs[k].kind == kind;
    sp->seq = n;
  }
  if (kind == SPEC_INPUT) *latest_input = c->n_specs;
  c->n_specs++;
  return 0;
}

/* The kernel variant the user demands (--variant) against the one compiled
 * in: holo is built with one (holo.wasm simd128, the native build scalar),
 * so a different one is refused rather than silently not honoured. */
static int check_variant(const char *want) {
  const char *have = holo_cpu_backend_variant();
  const char *name = !strcmp(want, "relaxed") ? "relaxed-simd" : want;
  if (strcmp(name, "scalar") && strcmp(name, "simd128") && strcmp(name, "relaxed-simd"))
    return cli_fail(CLI_USAGE, "--variant %s: one of scalar, simd128, relaxed", want);
  if (strcmp(name, have))
    return cli_fail(CLI_USAGE,
                    "--variant %s: this holo is built with the %s kernels (one variant per build; the npm "
                    "library's init(undefined, {variant}) chooses among its modules)",
                    want, have);
  return 0;
}

static int parse_validators(cli *c, const char *v) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s", v);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(0, ",")) {
    if (!strcmp(tok, "stable-labels") || !strcmp(tok, "labels")) c->validators |= HOLO_VALIDATE_STABLE_LABELS;
    else if (!strcmp(tok, "stable-bytes") || !strcmp(tok, "bytes")) c->validators |= HOLO_VALIDATE_STABLE_BYTES;
    else return cli_fail(CLI_USAGE, "--validator %s: expected stable-labels or stable-bytes", v);
  }
  return 0;
}

/* Options that take a value: NULL when `name` is none of them. */
static const char *const VALUED[] = {"--input", "-i", "--input-dtype", "--dtype", "--shape", "--output", "-o",
                                     "--output-dir", "--warm-store", "--warm-store-max-bytes",
                                     "--warm-store-max-entries", "--memory-budget", "--weight-budget", "--variant", "--repeat",
                                     "--passes", "--validator", "--retry", "--state-in", "--state-out", 0};
static bool is_valued(const char *name) {
  for (int k = 0; VALUED[k]; k++)
    if (!strcmp(name, VALUED[k])) return true;
  return false;
}

/* One valued option, its value v. */
static int set_valued(cli *c, const char *name, const char *v, int *latest_input) {
  static const struct {
    const char *name;
    cli_spec_kind kind;
  } SPECS[] = {{"--input", SPEC_INPUT},   {"-i", SPEC_INPUT},          {"--input-dtype", SPEC_DTYPE},
               {"--dtype", SPEC_DTYPE},   {"--shape", SPEC_SHAPE},     {"--output", SPEC_OUTPUT},
               {"--state-in", SPEC_STATE_IN}, {"--state-out", SPEC_STATE_OUT}};
  for (size_t k = 0; k < sizeof SPECS / sizeof SPECS[0]; k++)
    if (!strcmp(name, SPECS[k].name)) return add_spec(c, SPECS[k].kind, v, latest_input);
  uint64_t u = 0;
  int rc = 0;
  if (!strcmp(name, "-o") || !strcmp(name, "--output-dir")) c->out_dir = v;
  else if (!strcmp(name, "--warm-store")) c->store_dir = v;
  else if (!strcmp(name, "--variant")) c->variant = v;
  else if (!strcmp(name, "--warm-store-max-bytes")) rc = cli_flag_bytes(name, v, &c->store_max_bytes);
  else if (!strcmp(name, "--warm-store-max-entries"))
    rc = cli_flag_u64(name, v, 1, HOLO_FILE_STORE_ENTRIES_LIMIT, &c->store_max_entries);
  else if (!strcmp(name, "--memory-budget")) {
    if (!cli_parse_u64(v, &c->budget, true))
      return cli_fail(CLI_USAGE, "--memory-budget %s: expected a byte count like 67108864 or 64m", v);
  } else if (!strcmp(name, "--weight-budget")) {
    rc = cli_flag_bytes(name, v, &c->weight_budget);
  } else if (!strcmp(name, "--repeat")) {
    rc = cli_flag_u64(name, v, 1, 1000000, &u);
    c->repeat = (int)u;
  } else if (!strcmp(name, "--passes")) {
    rc = cli_flag_u32(name, v, 1, 0x7fffffff, &c->passes);
  } else if (!strcmp(name, "--retry")) {
    rc = cli_flag_u32(name, v, 1, 0x7fffffff, &c->retry);
    c->retry_set = true;
  } else if (!strcmp(name, "--validator")) {
    rc = parse_validators(c, v);
  }
  return rc;
}

/* What the verb allows, once every option is read. */
static int check_combination(cli *c) {
  if (!c->file) return cli_fail(CLI_USAGE, "%s: which archive? (holo %s FILE.holo; see holo --help)", c->verb, c->verb);
  bool refine = !strcmp(c->verb, "refine"), bench = !strcmp(c->verb, "bench");
  for (int k = 0; k < c->n_specs; k++)
    if (!refine && (c->specs[k].kind == SPEC_STATE_IN || c->specs[k].kind == SPEC_STATE_OUT))
      return cli_fail(CLI_USAGE, "--state-in/--state-out are options of refine");
  if (!refine && !bench && strcmp(c->verb, "run")) {
    if (c->n_specs || c->out_dir || c->print)
      return cli_fail(CLI_USAGE, "%s takes no input/output options (they belong to run, refine and bench)", c->verb);
  }
  if ((c->store_max_bytes || c->store_max_entries) && !c->store_dir)
    return cli_fail(CLI_USAGE, "--warm-store-max-bytes/--warm-store-max-entries bound a warm store: give --warm-store DIR");
  if (refine && !c->validators) c->validators = HOLO_VALIDATE_STABLE_LABELS;
  return c->variant ? check_variant(c->variant) : 0;
}

static int parse_args(int argc, char **argv, cli *c) {
  memset(c, 0, sizeof *c);
  c->repeat = 20;
  c->passes = 8;
  int latest_input = -1;
  c->verb = argv[1];
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || !a[1]) {
      if (c->file) return cli_fail(CLI_USAGE, "unexpected argument '%s' (one archive per call; see holo --help)", a);
      c->file = a;
      continue;
    }
    /* --opt=value or --opt value */
    char name[64];
    const char *v = 0, *eq = strchr(a, '=');
    if (eq && a[1] == '-' && (size_t)(eq - a) < sizeof name) {
      memcpy(name, a, (size_t)(eq - a));
      name[eq - a] = 0;
      v = eq + 1;
    } else {
      snprintf(name, sizeof name, "%s", a);
    }
    if (!strcmp(name, "--print") || !strcmp(name, "--trust-store")) {
      if (v) return cli_fail(CLI_USAGE, "%s takes no value", name);
      if (name[2] == 'p') c->print = true;
      else c->trust_store = true;
      continue;
    }
    if (!strcmp(name, "--help") || !strcmp(name, "-h")) continue; /* handled in main */
    if (!is_valued(name)) return cli_fail(CLI_USAGE, "unknown option '%s' (see holo --help)", name);
    if (!v) {
      if (i + 1 >= argc) return cli_fail(CLI_USAGE, "%s needs a value (see holo --help)", name);
      v = argv[++i];
    }
    int rc = set_valued(c, name, v, &latest_input);
    if (rc) return rc;
  }
  return check_combination(c);
}

/* --- the verbs: one table dispatches them and names them to the user --- */

typedef int (*session_verb)(holo_session *s, cli *c, const uint8_t *bytes, size_t len, double load_ms);

static int verb_info(holo_session *s, cli *c, const uint8_t *bytes, size_t len, double load_ms) {
  return cli_info(s, c, bytes, len, load_ms);
}
static int verb_verify(holo_session *s, cli *c, const uint8_t *bytes, size_t len, double load_ms) {
  (void)bytes, (void)len, (void)load_ms;
  holo_error err = {0};
  if (holo_session_verify_constants(s, &err)) return holo_cli_fail(c->file, &err, CLI_ARCHIVE);
  printf("verify: %s: every constant label matches its bytes\n", c->file);
  return 0;
}
static int verb_run(holo_session *s, cli *c, const uint8_t *bytes, size_t len, double load_ms) {
  (void)bytes, (void)len;
  printf("load_ms: %.3f\n", load_ms);
  cli_print_counters("load", s);
  return cli_run(s, c);
}
static int verb_bench(holo_session *s, cli *c, const uint8_t *bytes, size_t len, double load_ms) {
  (void)bytes, (void)len;
  return cli_bench(s, c, load_ms);
}
static int verb_refine(holo_session *s, cli *c, const uint8_t *bytes, size_t len, double load_ms) {
  (void)bytes, (void)len, (void)load_ms;
  return cli_refine(s, c);
}

/* The converter is JavaScript (compiler/): listed here so that `holo
 * --help` is the same text from every build, and `holo convert` in this
 * program says where the verb is instead of "unknown verb". */
static int convert_main(int argc, char **argv) {
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(CONVERT_USAGE, stdout);
      return 0;
    }
  return cli_fail(CLI_LIMIT, "convert: the ONNX converter is JavaScript, not part of this program: run the npm "
                             "package's holo (npx hologram-exec convert MODEL.onnx -o FILE.holo)");
}

/* Exactly one of the handlers is set, except for help (none). */
static const struct verb {
  const char *name;
  int (*argv_main)(int argc, char **argv); /* owns its command line */
  int (*file_main)(const char *path);      /* needs the file, not a session */
  session_verb session_main;               /* runs on a loaded session */
} VERBS[] = {
    {"info", 0, 0, verb_info},
    {"dump", 0, holo_cli_dump, 0},
    {"run", 0, 0, verb_run},
    {"refine", 0, 0, verb_refine},
    {"bench", 0, 0, verb_bench},
    {"verify", 0, 0, verb_verify},
    {"generate", cli_generate_main, 0, 0}, /* wasi/cli-generate.c */
    {"convert", convert_main, 0, 0},
    {"help", 0, 0, 0},
};
#define N_VERBS (sizeof VERBS / sizeof VERBS[0])

static int unknown_verb(const char *v) {
  char list[256];
  size_t n = 0;
  list[0] = 0;
  for (size_t k = 0; k < N_VERBS && n < sizeof list; k++)
    n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", k ? ", " : "", VERBS[k].name);
  return cli_fail(CLI_USAGE, "unknown verb '%s' (the verbs: %s; see holo --help)", v, list);
}

int main(int argc, char **argv) {
  cli_host_cwd();
  if (argc < 2) {
    fputs(USAGE, stderr);
    return CLI_USAGE;
  }
  const struct verb *vb = 0;
  for (size_t k = 0; k < N_VERBS && !vb; k++)
    if (!strcmp(argv[1], VERBS[k].name)) vb = &VERBS[k];
  if (vb && vb->argv_main) return vb->argv_main(argc, argv);
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || (i == 1 && !strcmp(argv[i], "help"))) {
      fputs(USAGE, stdout);
      return 0;
    }
  if (!vb) return unknown_verb(argv[1]);
  static cli c; /* large: keep it off the (1 MiB, WASI) stack */
  int rc = parse_args(argc, argv, &c);
  if (rc) return rc;
  if (vb->file_main) return vb->file_main(c.file);

  uint8_t *bytes = 0;
  size_t len = 0;
  holo_error err = {0};
  static holo_file_source src;
  src.fd = -1;
  if (c.weight_budget) { /* constants read by range: the file stays open, not in memory */
    if (holo_file_source_open(&src, c.file, &err)) return holo_cli_fail(c.file, &err, CLI_ARCHIVE);
    len = (size_t)src.source.size;
  } else if ((rc = cli_read_file(c.file, CLI_ARCHIVE, &bytes, &len))) {
    return rc;
  }
  holo_backend be;
  holo_cpu_backend_init(&be);
  static holo_file_store fs;
  holo_options opt = {holo_std_allocator(), c.budget, 0, c.trust_store ? HOLO_OPT_TRUST_STORE : 0};
  if (c.store_dir) {
    if ((rc = cli_open_store(&fs, c.store_dir, c.store_max_bytes, c.store_max_entries))) {
      free(bytes);
      holo_file_source_close(&src);
      return rc;
    }
    opt.warm_store = &fs.store;
  }
  holo_session *s = 0;
  double t0 = cli_now_ms();
  holo_status st = c.weight_budget ? holo_session_load_source(&src.source, &be, &opt, c.weight_budget, &s, &err)
                                   : holo_session_load(bytes, len, &be, &opt, &s, &err);
  double load_ms = cli_now_ms() - t0;
  if (st) {
    /* the archive is the only input of a load: its faults are exit 2 */
    int code = cli_exit_code(st);
    rc = holo_cli_fail(c.file, &err, code == CLI_INPUT ? CLI_ARCHIVE : code);
    goto out;
  }
  if ((rc = cli_resolve_specs(s, &c))) goto out;
  rc = vb->session_main(s, &c, bytes, len, load_ms);
out:
  holo_session_free(s);
  if (c.store_dir) holo_file_store_close(&fs);
  free(bytes);
  holo_file_source_close(&src);
  fflush(stdout);
  if (ferror(stdout) && !rc) rc = cli_fail(CLI_LIMIT, "cannot write to standard output");
  return rc;
}
