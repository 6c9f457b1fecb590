/* `holo`: the command-line program, native (std) and WASI (holo.wasm).
 * Exit codes: 0 ok, 1 usage, 2 bad archive, 3 bad input, 4 resource limit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hologram/cpu_backend.h"
#include "holo-cli.h"
#include "holo-std.h"

static const char USAGE[] =
    "usage: holo <verb> FILE.holo [options]\n"
    "verbs:\n"
    "  info FILE               ports, dtypes, shapes, kernel count, labels\n"
    "  dump FILE               the archive as graph JSON\n"
    "  run FILE [--input F]... run once; inputs are raw little-endian files in port\n"
    "                          order (default: a fixed sin() pattern); --print shows outputs\n"
    "  bench FILE [--repeat N] median time of N executions with fresh inputs and of memo hits\n"
    "  verify FILE             recompute every constant label and compare\n"
    "options: --warm-store DIR  --memory-budget BYTES  --shape i=d0,d1,..  --print\n";

int holo_cli_fail(const char *what, const holo_error *err, int code) {
  fprintf(stderr, "holo: %s: %s\n", what, err->message);
  return code;
}

static int exit_code(holo_status st) {
  switch (st) {
  case HOLO_ERR_FORMAT:
  case HOLO_ERR_UNSUPPORTED: return 2;
  case HOLO_ERR_INPUT:
  case HOLO_ERR_ARG:
  case HOLO_ERR_KERNEL: return 3;
  default: return 4;
  }
}

typedef struct cli {
  const char *verb, *file, *store_dir;
  const char *inputs[64];
  int n_inputs;
  int64_t shapes[64][HOLO_MAX_RANK];
  uint32_t ranks[64];
  bool has_shape[64];
  uint64_t budget;
  int repeat;
  bool print;
} cli;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int parse_args(int argc, char **argv, cli *c) {
  memset(c, 0, sizeof *c);
  c->repeat = 20;
  if (argc < 3) return 1;
  c->verb = argv[1];
  c->file = argv[2];
  for (int i = 3; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : 0;
    if (!strcmp(a, "--print")) c->print = true;
    else if (!v) return 1;
    else if (!strcmp(a, "--input") && c->n_inputs < 64) c->inputs[c->n_inputs++] = argv[++i];
    else if (!strcmp(a, "--warm-store")) c->store_dir = argv[++i];
    else if (!strcmp(a, "--memory-budget")) c->budget = strtoull(argv[++i], 0, 10);
    else if (!strcmp(a, "--repeat")) c->repeat = atoi(argv[++i]);
    else if (!strcmp(a, "--shape")) {
      char *end;
      long idx = strtol(argv[++i], &end, 10);
      if (idx < 0 || idx >= 64 || *end != '=') return 1;
      uint32_t r = 0;
      for (char *p = end + 1; *p && r < HOLO_MAX_RANK; r++) {
        c->shapes[idx][r] = strtoll(p, &p, 10);
        if (*p == ',') p++;
      }
      c->ranks[idx] = r;
      c->has_shape[idx] = true;
    } else return 1;
  }
  return c->repeat > 0 ? 0 : 1;
}

static const char *dtype_name(uint32_t dt) {
  switch (dt) {
  case HOLO_DT_F32: return "float32";
  case HOLO_DT_U8: return "uint8";
  case HOLO_DT_I8: return "int8";
  case HOLO_DT_I32: return "int32";
  case HOLO_DT_I64: return "int64";
  case HOLO_DT_BOOL: return "bool";
  case HOLO_DT_F16: return "float16";
  case HOLO_DT_F64: return "float64";
  default: return "other";
  }
}

static void print_port(const char *kind, uint32_t i, const holo_port_info *p) {
  printf("%s %u: %.*s %s [", kind, i, (int)p->name_len, p->name, dtype_name(p->dtype));
  if (p->rank == 255) printf("?");
  for (uint32_t d = 0; p->rank != 255 && d < p->rank; d++) {
    if (d) printf(",");
    if (p->shape[d] < 0) printf("%.*s", (int)p->symbol_len[d], p->symbol[d]);
    else printf("%lld", (long long)p->shape[d]);
  }
  printf("]\n");
}

/* Input i: from a file, or a deterministic pattern so runs are repeatable. */
static int make_input(holo_session *s, const cli *c, uint32_t i, holo_input *in, uint8_t **owned, uint32_t salt) {
  holo_port_info p;
  holo_session_input_info(s, i, &p);
  int64_t *shape = malloc(sizeof(int64_t) * HOLO_MAX_RANK);
  for (uint32_t d = 0; d < p.rank; d++)
    shape[d] = c->has_shape[i] && d < c->ranks[i] ? c->shapes[i][d] : (p.shape[d] < 0 ? 1 : p.shape[d]);
  in->shape = shape;
  in->rank = p.rank;
  if ((int)i < c->n_inputs) {
    holo_error err = {0};
    if (holo_read_file(c->inputs[i], owned, &in->len, &err)) return holo_cli_fail(c->inputs[i], &err, 3);
    in->bytes = *owned;
    return 0;
  }
  size_t n = 1, es = holo_dtype_size(p.dtype);
  for (uint32_t d = 0; d < p.rank; d++) n *= (size_t)shape[d];
  *owned = malloc(n * es + 1);
  for (size_t k = 0; k < n; k++) {
    if (p.dtype == HOLO_DT_F32) ((float *)*owned)[k] = (float)sin((double)(k + salt) * 0.37);
    else for (size_t b = 0; b < es; b++) (*owned)[k * es + b] = (uint8_t)(k + salt);
  }
  in->bytes = *owned;
  in->len = n * es;
  return 0;
}

static void print_output(uint32_t i, const holo_output *o) {
  printf("output %u: %s [", i, dtype_name(o->dtype));
  for (uint32_t d = 0; d < o->rank; d++) printf(d ? ",%lld" : "%lld", (long long)o->shape[d]);
  printf("] =");
  size_t n = o->len / (holo_dtype_size(o->dtype) ? holo_dtype_size(o->dtype) : 1);
  for (size_t k = 0; k < n && k < 16; k++) {
    if (o->dtype == HOLO_DT_F32) printf(" %.6g", (double)((float *)o->bytes)[k]);
    else if (o->dtype == HOLO_DT_I64) printf(" %lld", (long long)((int64_t *)o->bytes)[k]);
    else printf(" %u", ((uint8_t *)o->bytes)[k]);
  }
  printf(n > 16 ? " ... (%zu values)\n" : "\n", n);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void print_counters(const holo_session *s) {
  holo_counters k;
  holo_session_counters(s, &k);
  printf("counters: executions=%llu dispatches=%llu elided=%llu memo_hits=%llu store_hits=%llu "
         "store_misses=%llu store_corrupt=%llu resident_bytes=%llu resident_count=%u "
         "content_store_len=%u peak_live_bytes=%llu\n",
         (unsigned long long)k.executions, (unsigned long long)k.dispatches, (unsigned long long)k.elided,
         (unsigned long long)k.memo_hits, (unsigned long long)k.store_hits,
         (unsigned long long)k.store_misses, (unsigned long long)k.store_corrupt,
         (unsigned long long)holo_session_resident_bytes(s), holo_session_resident_count(s),
         holo_session_content_store_len(s), (unsigned long long)k.peak_live_bytes);
}

static int execute_once(holo_session *s, const cli *c, uint32_t salt, bool print, double *ms) {
  uint32_t ni = holo_session_input_count(s), no = holo_session_output_count(s);
  holo_input in[64] = {{0}};
  uint8_t *owned[64] = {0};
  holo_output out[64];
  int rc = 0;
  holo_error err = {0};
  for (uint32_t i = 0; i < ni && !rc; i++) rc = make_input(s, c, i, &in[i], &owned[i], salt);
  if (!rc) {
    double t0 = now_ms();
    holo_status st = holo_execute(s, in, ni, out, no, &err);
    *ms = now_ms() - t0;
    if (st) rc = holo_cli_fail(c->file, &err, exit_code(st));
    for (uint32_t o = 0; !st && o < no; o++) {
      if (print) print_output(o, &out[o]);
      holo_output_free(s, &out[o]);
    }
  }
  for (uint32_t i = 0; i < ni; i++) {
    free(owned[i]);
    free((void *)in[i].shape);
  }
  return rc;
}

int main(int argc, char **argv) {
  cli c;
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))) {
    fputs(USAGE, stdout);
    return 0;
  }
  if (parse_args(argc, argv, &c)) {
    fputs(USAGE, stderr);
    return 1;
  }
  if (!strcmp(c.verb, "dump")) return holo_cli_dump(c.file);
  if (strcmp(c.verb, "info") && strcmp(c.verb, "run") && strcmp(c.verb, "bench") && strcmp(c.verb, "verify")) {
    fprintf(stderr, "holo: unknown verb '%s'\n%s", c.verb, USAGE);
    return 1;
  }
  holo_error err = {0};
  uint8_t *bytes;
  size_t len;
  if (holo_read_file(c.file, &bytes, &len, &err)) return holo_cli_fail(c.file, &err, 2);
  holo_backend be;
  holo_cpu_backend_init(&be);
  holo_file_store fs;
  holo_options opt = {holo_std_allocator(), c.budget, 0, 0};
  if (c.store_dir) {
    if (holo_file_store_open(&fs, c.store_dir, &err)) {
      free(bytes);
      return holo_cli_fail(c.store_dir, &err, 4);
    }
    opt.warm_store = &fs.store;
  }
  holo_session *s;
  double t0 = now_ms();
  holo_status st = holo_session_load(bytes, len, &be, &opt, &s, &err);
  double load_ms = now_ms() - t0;
  int rc = 0;
  if (st) {
    rc = holo_cli_fail(c.file, &err, exit_code(st) == 3 ? 2 : exit_code(st));
    goto out;
  }
  if (!strcmp(c.verb, "info")) {
    printf("archive: %s\nlabel: %s\nbackend: %s\nkernels: %u\n", c.file, holo_session_archive_label(s),
           holo_session_backend_identity(s), holo_session_kernel_count(s));
    holo_port_info p;
    for (uint32_t i = 0; i < holo_session_input_count(s); i++) {
      holo_session_input_info(s, i, &p);
      print_port("input", i, &p);
    }
    for (uint32_t i = 0; i < holo_session_output_count(s); i++) {
      holo_session_output_info(s, i, &p);
      print_port("output", i, &p);
    }
    printf("load_ms: %.3f\n", load_ms);
    print_counters(s);
  } else if (!strcmp(c.verb, "verify")) {
    st = holo_session_verify_constants(s, &err);
    if (st) rc = holo_cli_fail(c.file, &err, 2);
    else printf("verify: every constant label matches its bytes\n");
  } else if (!strcmp(c.verb, "run")) {
    double ms, ms2;
    rc = execute_once(s, &c, 0, true, &ms);
    if (!rc) rc = execute_once(s, &c, 0, c.print, &ms2);
    if (!rc) {
      printf("load_ms: %.3f\nexecute_ms: %.3f\nrepeat_ms: %.3f (same inputs: memo)\n", load_ms, ms, ms2);
      print_counters(s);
    }
  } else {
    double *t = malloc(sizeof(double) * (size_t)c.repeat), *m = malloc(sizeof(double) * (size_t)c.repeat);
    for (int r = 0; r < c.repeat && !rc; r++) {
      rc = execute_once(s, &c, (uint32_t)r + 1, false, &t[r]);
      if (!rc) rc = execute_once(s, &c, (uint32_t)r + 1, false, &m[r]);
    }
    if (!rc) {
      qsort(t, (size_t)c.repeat, sizeof *t, cmp_double);
      qsort(m, (size_t)c.repeat, sizeof *m, cmp_double);
      printf("{\"archive\":\"%s\",\"backend\":\"%s\",\"repeat\":%d,\"median_ms\":%.4f,\"memo_hit_median_ms\":%.5f}\n",
             c.file, holo_session_backend_identity(s), c.repeat, t[c.repeat / 2], m[c.repeat / 2]);
    }
    free(t);
    free(m);
  }
out:
  holo_session_free(s);
  if (c.store_dir) holo_file_store_close(&fs);
  free(bytes);
  return rc;
}
