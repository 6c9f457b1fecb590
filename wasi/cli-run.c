/* `holo run` and `holo bench`: inputs from .npy or raw files (or a
 * generated pattern), outputs to .npy files or stdout. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "holo-cli.h"
#include "hologram/cpu_backend.h"

double cli_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void cli_print_shape(const int64_t *shape, uint32_t rank) {
  printf("[");
  for (uint32_t d = 0; d < rank; d++) printf(d ? ",%lld" : "%lld", (long long)shape[d]);
  printf("]");
}

void cli_print_counters(const char *prefix, const holo_session *s) {
  holo_counters k;
  holo_session_counters(s, &k);
  printf("%s: executions=%llu dispatches=%llu elided=%llu memo_hits=%llu store_hits=%llu "
         "store_misses=%llu store_corrupt=%llu store_puts=%llu bytes_hashed=%llu evictions=%llu "
         "resident_bytes=%llu resident_count=%u content_store_len=%u peak_live_bytes=%llu\n",
         prefix, (unsigned long long)k.executions, (unsigned long long)k.dispatches,
         (unsigned long long)k.elided, (unsigned long long)k.memo_hits, (unsigned long long)k.store_hits,
         (unsigned long long)k.store_misses, (unsigned long long)k.store_corrupt,
         (unsigned long long)k.store_puts, (unsigned long long)k.bytes_hashed, (unsigned long long)k.evictions,
         (unsigned long long)holo_session_resident_bytes(s), holo_session_resident_count(s),
         holo_session_content_store_len(s), (unsigned long long)k.peak_live_bytes);
  if (k.weight_fetches)
    printf("%s: weight_fetches=%llu weight_evictions=%llu weight_bytes_fetched=%llu weight_peak_bytes=%llu "
           "weight_stall_ms=%.3f\n",
           prefix, (unsigned long long)k.weight_fetches, (unsigned long long)k.weight_evictions,
           (unsigned long long)k.weight_bytes_fetched, (unsigned long long)k.weight_peak_bytes,
           (double)k.weight_stall_ns / 1e6);
}

/* --- PORT= resolution --- */

static bool port_named(holo_session *s, bool input, const char *name, size_t n, int *idx) {
  uint32_t count = input ? holo_session_input_count(s) : holo_session_output_count(s);
  holo_port_info p;
  for (uint32_t i = 0; i < count; i++) {
    (input ? holo_session_input_info : holo_session_output_info)(s, i, &p);
    if (p.name_len == n && !memcmp(p.name, name, n)) {
      *idx = (int)i;
      return true;
    }
  }
  bool digits = n > 0 && n < 4;
  int v = 0;
  for (size_t k = 0; k < n && digits; k++) {
    digits = name[k] >= '0' && name[k] <= '9';
    v = v * 10 + (name[k] - '0');
  }
  if (digits && (uint32_t)v < count) {
    *idx = v;
    return true;
  }
  return false;
}

static void list_ports(holo_session *s, bool input, char *out, size_t cap) {
  uint32_t count = input ? holo_session_input_count(s) : holo_session_output_count(s);
  holo_port_info p;
  size_t n = 0;
  out[0] = 0;
  for (uint32_t i = 0; i < count && n < cap; i++) {
    (input ? holo_session_input_info : holo_session_output_info)(s, i, &p);
    n += (size_t)snprintf(out + n, cap - n, "%s%u=%.*s", i ? ", " : "", i, (int)p.name_len, p.name);
  }
}

static const char *OPT[] = {"--input", "--input-dtype", "--shape", "--output", "--state-in", "--state-out"};

static int no_port(holo_session *s, const cli_spec *sp, bool input, const char *why) {
  char ports[512];
  list_ports(s, input, ports, sizeof ports);
  return cli_fail(CLI_USAGE, "%s %s: %s (%s ports: %s)", OPT[sp->kind], sp->raw, why, input ? "input" : "output",
                  ports[0] ? ports : "none");
}

int cli_resolve_specs(holo_session *s, cli *c) {
  uint32_t ni = holo_session_input_count(s), no = holo_session_output_count(s);
  /* 1: explicit PORT= (and the bare ports of --state-in/--state-out) */
  for (int k = 0; k < c->n_specs; k++) {
    cli_spec *sp = &c->specs[k];
    bool input = sp->kind != SPEC_OUTPUT && sp->kind != SPEC_STATE_OUT;
    sp->value = sp->raw;
    sp->resolved = -1;
    const char *eq = strchr(sp->raw, '=');
    int idx;
    if (sp->kind == SPEC_STATE_IN || sp->kind == SPEC_STATE_OUT) {
      if (!port_named(s, input, sp->raw, strlen(sp->raw), &idx)) return no_port(s, sp, input, "no such port");
      sp->resolved = idx;
    } else if (eq && port_named(s, input, sp->raw, (size_t)(eq - sp->raw), &idx)) {
      sp->resolved = idx;
      sp->value = eq + 1;
    } else if (eq && (sp->kind == SPEC_DTYPE || sp->kind == SPEC_SHAPE)) {
      /* for --input/--output an '=' that names no port is part of the file name */
      return no_port(s, sp, input, "no such port");
    }
  }
  /* 2: positional --input/--output take the ports not named, in order */
  static const int POSITIONAL[2] = {SPEC_INPUT, SPEC_OUTPUT};
  for (int pk = 0; pk < 2; pk++) {
    int kind = POSITIONAL[pk];
    uint32_t count = kind == SPEC_INPUT ? ni : no, next = 0;
    for (int k = 0; k < c->n_specs; k++) {
      cli_spec *sp = &c->specs[k];
      if ((int)sp->kind != kind || sp->resolved >= 0) continue;
      for (;; next++) {
        bool taken = false;
        for (int j = 0; j < c->n_specs; j++)
          taken = taken || ((int)c->specs[j].kind == kind && c->specs[j].resolved == (int)next);
        if (!taken) break;
      }
      if (next >= count) return no_port(s, sp, kind == SPEC_INPUT, "more files than ports");
      sp->resolved = (int)next++;
    }
  }
  /* 3: unprefixed --input-dtype/--shape follow the latest --input (else port 0) */
  for (int k = 0; k < c->n_specs; k++) {
    cli_spec *sp = &c->specs[k];
    if ((sp->kind == SPEC_DTYPE || sp->kind == SPEC_SHAPE) && sp->resolved < 0) {
      sp->resolved = sp->seq < 0 ? 0 : c->specs[sp->seq].resolved;
      if ((uint32_t)sp->resolved >= ni) return no_port(s, sp, true, "the archive has no inputs");
    }
  }
  for (int k = 0; k < c->n_specs; k++)
    for (int j = 0; j < k; j++)
      if (c->specs[j].kind == c->specs[k].kind && c->specs[j].resolved == c->specs[k].resolved)
        return cli_fail(CLI_USAGE, "%s given twice for %s port %d", OPT[c->specs[k].kind],
                        c->specs[k].kind == SPEC_OUTPUT || c->specs[k].kind == SPEC_STATE_OUT ? "output" : "input",
                        c->specs[k].resolved);
  return 0;
}

static const cli_spec *spec_for(const cli *c, cli_spec_kind kind, uint32_t port) {
  for (int k = 0; k < c->n_specs; k++)
    if (c->specs[k].kind == kind && c->specs[k].resolved == (int)port) return &c->specs[k];
  return 0;
}

static const char *fmt_shape(const int64_t *shape, uint32_t rank, char *buf, size_t cap) {
  size_t n = (size_t)snprintf(buf, cap, "[");
  for (uint32_t d = 0; d < rank && n < cap; d++)
    n += (size_t)snprintf(buf + n, cap - n, d ? ",%lld" : "%lld", (long long)shape[d]);
  if (n < cap) snprintf(buf + n, cap - n, "]");
  return buf;
}

static bool parse_dims(const char *v, int64_t *shape, uint32_t *rank) {
  *rank = 0;
  if (!*v) return true; /* a scalar */
  for (const char *p = v;; p++) {
    char dim[24];
    size_t n = strcspn(p, ",x");
    uint64_t d;
    if (n >= sizeof dim || *rank >= HOLO_MAX_RANK) return false;
    memcpy(dim, p, n);
    dim[n] = 0;
    if (!cli_parse_u64(dim, &d, false) || d > INT64_MAX) return false;
    shape[(*rank)++] = (int64_t)d;
    p += n;
    if (!*p) return true;
  }
}

/* --- inputs --- */

static void fill_pattern(uint32_t dtype, uint8_t *p, size_t n) {
  size_t es = holo_dtype_size(dtype);
  for (size_t k = 0; k < n; k++) {
    double v = sin((double)k * 0.37);
    switch (dtype) {
    case HOLO_DT_F32: ((float *)p)[k] = (float)v; break;
    case HOLO_DT_F64: ((double *)p)[k] = v; break;
    case HOLO_DT_BOOL: p[k] = v > 0; break;
    case HOLO_DT_I64: ((int64_t *)p)[k] = 0; break; /* indices: 0 is always in range */
    case HOLO_DT_I32: ((int32_t *)p)[k] = 0; break;
    default: for (size_t b = 0; b < es; b++) p[k * es + b] = (uint8_t)(b == 0 ? k : 0);
    }
  }
}

/* The entropy input the converter gives an archive with unseeded random
 * ops (docs/decisions.md 99): `holo.entropy`, u32 [4]. */
static bool is_entropy(const holo_port_info *p, size_t need) {
  static const char name[] = "holo.entropy";
  return p->dtype == HOLO_DT_U32 && need == 16 && p->name_len == sizeof name - 1 && !memcmp(p->name, name, sizeof name - 1);
}

void cli_inputs_free(cli_inputs *ins) {
  for (uint32_t i = 0; i < ins->n; i++) free(ins->owned[i]);
  memset(ins, 0, sizeof *ins);
}

int cli_inputs_build(holo_session *s, const cli *c, cli_inputs *ins) {
  memset(ins, 0, sizeof *ins);
  ins->n = holo_session_input_count(s);
  if (ins->n > CLI_MAX_PORTS) return cli_fail(CLI_LIMIT, "%s: more than %d input ports", c->file, CLI_MAX_PORTS);
  for (uint32_t i = 0; i < ins->n; i++) {
    holo_port_info p;
    holo_session_input_info(s, i, &p);
    const cli_spec *fsp = spec_for(c, SPEC_INPUT, i), *dsp = spec_for(c, SPEC_DTYPE, i),
                   *shp = spec_for(c, SPEC_SHAPE, i);
    const char *file = fsp ? fsp->value : 0;
    char what[300];
    if (file) snprintf(what, sizeof what, "%s", file);
    else snprintf(what, sizeof what, "input %u '%.*s'", i, (int)p.name_len, p.name);
    int64_t *shape = ins->shape[i];
    uint32_t rank = 0;
    bool have_shape = false;
    if (shp) {
      if (!parse_dims(shp->value, shape, &rank))
        return cli_fail(CLI_USAGE, "--shape %s: expected dims like 1,3,224,224", shp->raw);
      have_shape = true;
    }
    if (dsp) {
      uint32_t dt = cli_dtype_parse(dsp->value);
      if (!dt) return cli_fail(CLI_USAGE, "--input-dtype %s: unknown dtype (float32 float64 float16 int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool, or f4 i8 u1 b1 ...)", dsp->raw);
      if (dt != p.dtype)
        return cli_fail(CLI_INPUT, "%s: --input-dtype %s does not match input %u '%.*s' (%s)", what,
                        cli_dtype_name(dt), i, (int)p.name_len, p.name, cli_dtype_name(p.dtype));
    }
    uint8_t *bytes = 0;
    size_t len = 0;
    if (file) {
      int rc = cli_read_file(file, CLI_INPUT, &bytes, &len);
      if (rc) return rc;
      ins->owned[i] = bytes;
      ins->source[i] = file;
    }
    if (file && cli_is_npy(bytes, len)) {
      cli_npy npy;
      char why[256];
      if (!cli_npy_parse(bytes, len, &npy, why, sizeof why)) return cli_fail(CLI_INPUT, "%s: %s", file, why);
      if (npy.dtype != p.dtype)
        return cli_fail(CLI_INPUT, "%s: dtype %s ('%s') does not match input %u '%.*s' (%s)", file,
                        cli_dtype_name(npy.dtype), npy.descr, i, (int)p.name_len, p.name, cli_dtype_name(p.dtype));
      if (have_shape && (rank != npy.rank || memcmp(shape, npy.shape, sizeof(int64_t) * rank)))
        return cli_fail(CLI_INPUT, "%s: --shape %s differs from the .npy shape", file, shp->value);
      rank = npy.rank;
      memcpy(shape, npy.shape, sizeof(int64_t) * rank);
      bytes = (uint8_t *)npy.data;
      len = npy.len;
    } else if (!have_shape) {
      /* The declared shape; a raw file may leave one symbolic dim to its length. */
      if (p.rank == 255) return cli_fail(CLI_INPUT, "%s: input %u '%.*s' has no declared shape: pass --shape", what, i, (int)p.name_len, p.name);
      rank = p.rank;
      int sym = -1, nsym = 0;
      size_t known = holo_dtype_size(p.dtype);
      for (uint32_t d = 0; d < rank; d++) {
        if (p.shape[d] < 0) {
          sym = (int)d;
          nsym++;
          shape[d] = 1;
        } else {
          shape[d] = p.shape[d];
          known *= (size_t)p.shape[d];
        }
      }
      if (nsym && file) {
        if (nsym > 1 || !known || len % known)
          return cli_fail(CLI_INPUT, "%s: input %u '%.*s' has symbolic dims: pass --shape (or use a .npy file)", file, i, (int)p.name_len, p.name);
        shape[sym] = (int64_t)(len / known);
      }
    }
    if (p.rank != 255 && rank != p.rank)
      return cli_fail(CLI_INPUT, "%s: rank %u, input %u '%.*s' has rank %u", what, rank, i, (int)p.name_len, p.name, p.rank);
    for (uint32_t d = 0; p.rank != 255 && d < rank; d++)
      if (p.shape[d] >= 0 && shape[d] != p.shape[d]) {
        char got[200];
        return cli_fail(CLI_INPUT, "%s: shape %s does not fit input %u '%.*s' (dim %u must be %lld)", what,
                        fmt_shape(shape, rank, got, sizeof got), i, (int)p.name_len, p.name, d, (long long)p.shape[d]);
      }
    size_t need;
    if (!holo_shape_bytes(p.dtype, shape, rank, &need))
      return cli_fail(CLI_LIMIT, "%s: shape is too large for this build", what);
    if (!file) {
      uint8_t *g = 0;
      if (posix_memalign((void **)&g, 64, need ? need : 1)) return cli_fail(CLI_LIMIT, "%s: out of memory (%zu bytes)", what, need);
      ins->owned[i] = bytes = g;
      len = need;
      if (is_entropy(&p, need)) {
        /* unseeded random ops read it: fresh bytes on every run (WASI random_get) */
        if (getentropy(g, need)) return cli_fail(CLI_LIMIT, "%s: the host gives no random bytes", what);
        ins->source[i] = "(fresh entropy)";
      } else
        fill_pattern(p.dtype, g, need / holo_dtype_size(p.dtype));
    } else if (len != need) {
      char sh[200];
      return cli_fail(CLI_INPUT, "%s: %zu bytes, but input %u '%.*s' as %s %s needs %zu", file, len, i,
                      (int)p.name_len, p.name, cli_dtype_name(p.dtype), fmt_shape(shape, rank, sh, sizeof sh), need);
    }
    ins->in[i] = (holo_input){bytes, len, shape, rank};
  }
  return 0;
}

void cli_inputs_perturb(holo_session *s, cli_inputs *ins, uint32_t k) {
  for (uint32_t i = 0; i < ins->n; i++) {
    holo_port_info p;
    holo_session_input_info(s, i, &p);
    size_t es = holo_dtype_size(p.dtype);
    if (!es || !ins->in[i].len) continue;
    size_t n = ins->in[i].len / es;
    uint8_t *b = (uint8_t *)ins->in[i].bytes;
    /* bit j of k goes to the lowest bit of element j: variants differ */
    for (size_t j = 0; j < n && j < 32; j++) {
      b[j * es] ^= (uint8_t)((k >> j) & 1); /* little-endian: the lowest bit of the element */
    }
  }
}

/* --- outputs --- */

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023;
  union { uint32_t u; float f; } v;
  if (exp == 0) {
    float f = ldexpf((float)man, -24);
    return sign ? -f : f;
  }
  v.u = sign | (exp == 31 ? 0x7f800000u | man << 13 : (exp + 112) << 23 | man << 13);
  return v.f;
}

static void print_values(uint32_t dtype, const void *data, size_t n, size_t limit) {
  for (size_t k = 0; k < n && k < limit; k++) {
    fputs(k ? " " : "", stdout);
    switch (dtype) {
    case HOLO_DT_F32: printf("%.9g", (double)((const float *)data)[k]); break;
    case HOLO_DT_F64: printf("%.17g", ((const double *)data)[k]); break;
    case HOLO_DT_F16: printf("%.5g", (double)half_to_float(((const uint16_t *)data)[k])); break;
    case HOLO_DT_I8: printf("%d", ((const int8_t *)data)[k]); break;
    case HOLO_DT_U8: case HOLO_DT_BOOL: printf("%u", ((const uint8_t *)data)[k]); break;
    case HOLO_DT_I16: printf("%d", ((const int16_t *)data)[k]); break;
    case HOLO_DT_U16: printf("%u", ((const uint16_t *)data)[k]); break;
    case HOLO_DT_I32: printf("%d", ((const int32_t *)data)[k]); break;
    case HOLO_DT_U32: printf("%u", ((const uint32_t *)data)[k]); break;
    case HOLO_DT_I64: printf("%lld", (long long)((const int64_t *)data)[k]); break;
    case HOLO_DT_U64: printf("%llu", (unsigned long long)((const uint64_t *)data)[k]); break;
    default: printf("?");
    }
  }
  if (n > limit) printf(" ... (%zu values; --print shows all)", n);
}

static uint32_t rd32le(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A sequence or optional output (docs/holo-format.md §4b): "n items:" then
 * each item as dtype[shape] = values; an empty optional as "none". The
 * kernels wrote it, yet every bound is checked: a printer never reads past
 * what it was given. */
static void print_list(uint32_t dtype, const uint8_t *b, size_t len, size_t limit) {
  if (len < 16 || memcmp(b, "HSQ1", 4) != 0) {
    printf("(not a sequence encoding)");
    return;
  }
  uint32_t elem = rd32le(b + 8), n = rd32le(b + 12);
  bool inner = b[5] == 1;
  if (dtype == HOLO_DT_OPT && n == 0) {
    printf("none");
    return;
  }
  if (n > (len - 16) / 72) {
    printf("(not a sequence encoding)");
    return;
  }
  if (dtype == HOLO_DT_SEQ) printf("%u item%s", n, n == 1 ? "" : "s");
  size_t at = 16 + (size_t)n * 72;
  for (uint32_t k = 0; k < n; k++) {
    const uint8_t *r = b + 16 + (size_t)k * 72;
    uint32_t rank = rd32le(r);
    int64_t shape[HOLO_MAX_RANK] = {0};
    for (uint32_t d = 0; d < rank && d < HOLO_MAX_RANK; d++)
      for (int j = 7; j >= 0; j--)
        shape[d] = (int64_t)((uint64_t)shape[d] << 8 | r[8 + 8 * d + j]);
    size_t bytes = 0, start = (at + 7) & ~(size_t)7;
    if (rank > HOLO_MAX_RANK || !holo_shape_bytes(inner ? HOLO_DT_U8 : elem, shape, rank, &bytes) || start > len ||
        bytes > len - start) {
      printf(" (not a sequence encoding)");
      return;
    }
    printf("%s", dtype == HOLO_DT_SEQ ? (k ? "; " : ": ") : "");
    if (inner) {
      printf("sequence ");
      print_list(HOLO_DT_SEQ, b + start, bytes, limit);
    } else {
      printf("%s", cli_dtype_name(elem));
      cli_print_shape(shape, rank);
      printf(" = ");
      print_values(elem, b + start, bytes / holo_dtype_size(elem), limit);
    }
    at = start + bytes;
  }
}

const char *cli_output_dest(holo_session *s, const cli *c, uint32_t o, char *buf, size_t cap) {
  const cli_spec *osp = spec_for(c, SPEC_OUTPUT, o);
  if (osp) return osp->value;
  if (!c->out_dir) return 0;
  /* -o DIR: DIR/<port name>.npy, the name made safe for a file system */
  holo_port_info p;
  holo_session_output_info(s, o, &p);
  char name[200];
  size_t n = 0;
  for (uint32_t k = 0; k < p.name_len && n + 1 < sizeof name; k++) {
    char ch = p.name[k];
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
              ch == '_' || (ch == '.' && n > 0);
    name[n++] = ok ? ch : '_';
  }
  name[n] = 0;
  if (!n) snprintf(name, sizeof name, "output%u", o);
  snprintf(buf, cap, "%s/%s.npy", c->out_dir, name);
  return buf;
}

int cli_write_npy(const char *path, uint32_t dtype, const int64_t *shape, uint32_t rank, const void *data, size_t len) {
  char head[640];
  size_t hl = cli_npy_header(dtype, shape, rank, head, sizeof head);
  if (!hl) return cli_fail(CLI_INPUT, "%s: dtype %s has no .npy form", path, cli_dtype_name(dtype));
  return cli_write_file(path, CLI_INPUT, head, hl, data, len);
}

int cli_prepare_io(holo_session *s, const cli *c, cli_inputs *ins, uint32_t *n_out) {
  *n_out = holo_session_output_count(s);
  if (*n_out > CLI_MAX_PORTS) return cli_fail(CLI_LIMIT, "%s: more than %d output ports", c->file, CLI_MAX_PORTS);
  if (c->out_dir) {
    int rc = cli_ensure_dir(c->out_dir, CLI_INPUT, "output directory");
    if (rc) return rc;
  }
  int rc = cli_inputs_build(s, c, ins);
  if (rc) cli_inputs_free(ins);
  return rc;
}

int cli_run(holo_session *s, const cli *c) {
  uint32_t no;
  cli_inputs ins;
  int rc = cli_prepare_io(s, c, &ins, &no);
  if (rc) return rc;
  holo_counters before;
  holo_session_counters(s, &before);
  holo_output out[CLI_MAX_PORTS];
  holo_error err = {0};
  double t0 = cli_now_ms();
  holo_status st = holo_execute(s, ins.in, ins.n, out, no, &err);
  double ms = cli_now_ms() - t0;
  if (st) {
    cli_inputs_free(&ins);
    return holo_cli_fail(c->file, &err, cli_exit_code(st));
  }
  for (uint32_t i = 0; i < ins.n; i++) {
    holo_port_info p;
    holo_session_input_info(s, i, &p);
    printf("input %u %.*s: %s ", i, (int)p.name_len, p.name, cli_dtype_name(p.dtype));
    cli_print_shape(ins.shape[i], ins.in[i].rank);
    printf(" <- %s\n", ins.source[i] ? ins.source[i] : "(generated)");
  }
  for (uint32_t o = 0; o < no; o++) {
    holo_port_info p;
    holo_session_output_info(s, o, &p);
    char path[1400];
    const char *dest = cli_output_dest(s, c, o, path, sizeof path);
    bool list = holo_dtype_is_list(out[o].dtype);
    /* a sequence has no .npy form: it is printed, not written */
    if (list) dest = 0;
    if (!rc && dest) rc = cli_write_npy(dest, out[o].dtype, out[o].shape, out[o].rank, out[o].bytes, out[o].len);
    printf("output %u %.*s: %s ", o, (int)p.name_len, p.name, cli_dtype_name(out[o].dtype));
    if (list) {
      print_list(out[o].dtype, out[o].bytes, out[o].len, c->print ? (size_t)-1 : 16);
    } else
      cli_print_shape(out[o].shape, out[o].rank);
    if (dest) printf(" -> %s", dest);
    if (!list && (!dest || c->print)) {
      size_t es = holo_dtype_size(out[o].dtype);
      printf(" = ");
      print_values(out[o].dtype, out[o].bytes, es ? out[o].len / es : 0, c->print ? (size_t)-1 : 16);
    }
    printf("\n");
    holo_output_free(s, &out[o]);
  }
  cli_inputs_free(&ins);
  if (rc) return rc;
  printf("execute_ms: %.3f\n", ms);
  cli_print_counters("counters", s);
  return 0;
}

/* --- bench --- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int timed(holo_session *s, const cli *c, cli_inputs *ins, holo_view *views, uint32_t no, double *ms) {
  holo_error err = {0};
  double t0 = cli_now_ms();
  holo_status st = holo_execute_addressed(s, ins->in, ins->n, views, no, &err);
  *ms = cli_now_ms() - t0;
  return st ? holo_cli_fail(c->file, &err, cli_exit_code(st)) : 0;
}

static void json_escape(const char *p) {
  for (; *p; p++) {
    if (*p == '"' || *p == '\\') printf("\\%c", *p);
    else if ((unsigned char)*p < 0x20) printf("\\u%04x", *p);
    else putchar(*p);
  }
}

int cli_bench(holo_session *s, const cli *c, double load_ms) {
  uint32_t no = holo_session_output_count(s);
  if (no > CLI_MAX_PORTS) return cli_fail(CLI_LIMIT, "%s: more than %d output ports", c->file, CLI_MAX_PORTS);
  cli_inputs ins;
  int rc = cli_inputs_build(s, c, &ins);
  holo_view *views = malloc(sizeof(holo_view) * (no ? no : 1));
  int n = c->repeat;
  double *full = malloc(sizeof(double) * (size_t)n), *hit = malloc(sizeof(double) * (size_t)n), warm = 0;
  uint64_t full_memo = 0, hit_memo = 0, full_disp = 0;
  holo_counters k0, k1, k2;
  if (!rc && (!views || !full || !hit)) rc = cli_fail(CLI_LIMIT, "%s: out of memory (bench, %d rounds)", c->file, n);
  /* Warm-up with the inputs as given (variant 0), untimed. */
  if (!rc) rc = timed(s, c, &ins, views, no, &warm);
  for (int r = 0; r < n && !rc; r++) {
    /* Variant r+1 differs from every other: the memo cannot answer. */
    cli_inputs_perturb(s, &ins, (uint32_t)r + 1);
    holo_session_counters(s, &k0);
    rc = timed(s, c, &ins, views, no, &full[r]);
    holo_session_counters(s, &k1);
    if (!rc) rc = timed(s, c, &ins, views, no, &hit[r]); /* same inputs again: a memo hit */
    holo_session_counters(s, &k2);
    cli_inputs_perturb(s, &ins, (uint32_t)r + 1); /* back to variant 0 */
    full_memo += k1.memo_hits - k0.memo_hits;
    full_disp += k1.dispatches - k0.dispatches;
    hit_memo += k2.memo_hits - k1.memo_hits;
  }
  if (!rc) {
    if (full_memo)
      fprintf(stderr, "holo: %s: note: %llu of %d timed executions were memo hits (inputs too small to vary)\n",
              c->file, (unsigned long long)full_memo, n);
    qsort(full, (size_t)n, sizeof *full, cmp_double);
    qsort(hit, (size_t)n, sizeof *hit, cmp_double);
    printf("{\"archive\":\"");
    json_escape(c->file);
    printf("\",\"backend\":\"");
    json_escape(holo_session_backend_identity(s));
    printf("\",\"variant\":\"%s", holo_cpu_backend_variant());
    printf("\",\"repeat\":%d,\"load_ms\":%.4f,\"median_ms\":%.4f,\"min_ms\":%.4f,\"max_ms\":%.4f,"
           "\"dispatches_per_execution\":%.1f,\"memo_hits_in_timed\":%llu,"
           "\"memo_hit_median_ms\":%.5f,\"memo_hits_in_repeat\":%llu",
           n, load_ms, (full[(n - 1) / 2] + full[n / 2]) / 2, full[0], full[n - 1], (double)full_disp / n,
           (unsigned long long)full_memo, (hit[(n - 1) / 2] + hit[n / 2]) / 2, (unsigned long long)hit_memo);
    if (c->weight_budget) {
      holo_counters w;
      holo_session_counters(s, &w);
      printf(",\"weight_budget\":%llu,\"weight_fetches\":%llu,\"weight_evictions\":%llu,"
             "\"weight_bytes_fetched\":%llu,\"weight_peak_bytes\":%llu,\"weight_stall_ms\":%.3f",
             (unsigned long long)c->weight_budget, (unsigned long long)w.weight_fetches,
             (unsigned long long)w.weight_evictions, (unsigned long long)w.weight_bytes_fetched,
             (unsigned long long)w.weight_peak_bytes, (double)w.weight_stall_ns / 1e6);
    }
    printf("}\n");
  }
  free(full);
  free(hit);
  free(views);
  cli_inputs_free(&ins);
  return rc;
}
