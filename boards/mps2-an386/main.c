/* holo-board: the core on a bare-metal Cortex-M4F. Loads the archive (the
 * one linked into the image, or a host file), executes it once per record
 * of the input file, writes every output's bytes to the output file and
 * prints each output's label and SHA-256; then loads the archive again
 * over the same MemWarmStore and checks the warm session's first output
 * against the cold one's. All host I/O is semihosting.
 *
 *   qemu ... -semihosting-config enable=on,target=native,arg=holo-board,arg=INPUTS,arg=OUTPUT[,arg=ARCHIVE]
 *
 * A record is every input port's bytes in port order (concrete shapes). */
#include "board.h"
#include "hologram/cpu_backend.h"
#include "hologram/fmt.h"
#include "hologram/mem.h"
#include "semihost.h"
#include "hologram/sha256.h"

extern const uint8_t board_archive[], board_archive_end[];

#define MAX_PORTS 8

typedef struct run {
  holo_backend be;
  holo_mem_store store;
  const uint8_t *archive;
  size_t archive_len;
  uint8_t *inputs, *first_out;
  size_t in_len, rec_in, rec_out, first_len;
  uint32_t n_in, n_out;
  size_t in_bytes[MAX_PORTS];
  int out_fd;
  uint64_t exec_ns_total, exec_ns_max;
} run;

static int fail(const char *what, const holo_error *err) {
  sh_printf("board: %s: %s: %s\n", what, holo_status_name(err->status), err->message);
  return 2;
}

static void hex(const uint8_t *d, size_t n, char *out) {
  static const char x[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++)
    out[2 * i] = x[d[i] >> 4], out[2 * i + 1] = x[d[i] & 15];
  out[2 * n] = 0;
}

static void *read_file(const char *path, size_t *len) {
  int fd = sh_open(path, "rb");
  if (fd < 0) return 0;
  long n = sh_flen(fd);
  uint8_t *b = n >= 0 ? board_allocator()->alloc(0, (size_t)n + 1, 64) : 0;
  if (b && sh_read(fd, b, (size_t)n) != 0) {
    board_allocator()->free(0, b);
    b = 0;
  }
  sh_close(fd);
  *len = (size_t)n;
  return b;
}

/* A 4 MiB board cannot keep the default 64 MiB of finished values for
 * elision: transient values are bounded and the retained cache kept small. */
#define BOARD_MEMORY_BUDGET (1u << 20)
#define BOARD_RETAIN_BYTES (256u << 10)

static holo_status load(run *r, holo_session **s, holo_error *err) {
  holo_options o = {board_allocator(), BOARD_MEMORY_BUDGET, &r->store.store, 0};
  holo_status st = holo_session_load(r->archive, r->archive_len, &r->be, &o, s, err);
  if (st == HOLO_OK && (st = holo_session_set_retain_bytes(*s, BOARD_RETAIN_BYTES)) != HOLO_OK) {
    holo_session_free(*s);
    err->status = st;
    holo_fmt(err->message, sizeof err->message, "cannot set the retained-value bound");
  }
  return st;
}

/* Record sizes from the ports; inputs must have concrete shapes. */
static int plan(run *r, holo_session *s) {
  r->n_in = holo_session_input_count(s);
  r->n_out = holo_session_output_count(s);
  if (r->n_in > MAX_PORTS || r->n_out > MAX_PORTS) {
    sh_printf("board: %u inputs / %u outputs: at most %u each\n", (unsigned)r->n_in, (unsigned)r->n_out,
              MAX_PORTS);
    return 1;
  }
  r->rec_in = 0;
  for (uint32_t i = 0; i < r->n_in; i++) {
    holo_port_info pi;
    holo_session_input_info(s, i, &pi);
    if (pi.rank == 255 || !holo_shape_bytes(pi.dtype, pi.shape, pi.rank, &r->in_bytes[i])) {
      sh_printf("board: input %u (%.*s) has no concrete shape\n", (unsigned)i, (int)pi.name_len, pi.name);
      return 1;
    }
    r->rec_in += r->in_bytes[i];
  }
  if (r->rec_in == 0 || r->in_len % r->rec_in) {
    sh_printf("board: input file of %zu bytes is not a whole number of %zu-byte records\n", r->in_len,
              r->rec_in);
    return 1;
  }
  return 0;
}

static uint32_t argmax_f32(const holo_view *v) {
  if (v->dtype != HOLO_DT_F32 || v->len < 4) return 0;
  const float *p = v->data;
  uint32_t best = 0;
  for (uint32_t i = 1; i < v->len / 4; i++)
    if (p[i] > p[best]) best = i;
  return best;
}

static void inputs_of(run *r, size_t rec, holo_input *in) {
  const uint8_t *p = r->inputs + rec * r->rec_in;
  for (uint32_t i = 0; i < r->n_in; i++) {
    in[i] = (holo_input){p, r->in_bytes[i], 0, 0};
    p += r->in_bytes[i];
  }
}

/* One record: execute, print, append the output bytes to the file. */
static int execute_record(run *r, holo_session *s, size_t rec) {
  holo_input in[MAX_PORTS];
  holo_view v[MAX_PORTS];
  holo_error err = {0};
  inputs_of(r, rec, in);
  uint64_t t0 = sh_elapsed_ns();
  holo_status st = holo_execute_addressed(s, in, r->n_in, v, r->n_out, &err);
  uint64_t dt = sh_elapsed_ns() - t0;
  if (st != HOLO_OK) return fail("execute", &err);
  r->exec_ns_total += dt;
  if (dt > r->exec_ns_max) r->exec_ns_max = dt;
  for (uint32_t o = 0; o < r->n_out; o++) {
    uint8_t d[32];
    char h[65];
    holo_sha256_digest(v[o].data, v[o].len, d);
    hex(d, 32, h);
    sh_printf("out %zu.%u label=%s sha256=%s bytes=%zu argmax=%u\n", rec, (unsigned)o, v[o].label, h,
              v[o].len, (unsigned)argmax_f32(&v[o]));
    if (sh_write(r->out_fd, v[o].data, v[o].len) != 0) {
      sh_printf("board: cannot write the output file\n");
      return 1;
    }
    if (rec == 0 && o == 0) {
      r->first_out = board_allocator()->alloc(0, v[o].len + 1, 8);
      if (!r->first_out) return sh_printf("board: out of memory\n"), 4;
      holo_memcpy(r->first_out, v[o].data, v[o].len);
      r->first_len = v[o].len;
    }
  }
  return 0;
}

/* A second session over the same store: the constant cone comes from it. */
static int warm_check(run *r) {
  holo_session *s;
  holo_error err = {0};
  holo_counters c;
  holo_input in[MAX_PORTS];
  holo_view v[MAX_PORTS];
  if (load(r, &s, &err) != HOLO_OK) return fail("warm load", &err);
  inputs_of(r, 0, in);
  if (holo_execute_addressed(s, in, r->n_in, v, r->n_out, &err) != HOLO_OK) {
    holo_session_free(s);
    return fail("warm execute", &err);
  }
  int same = v[0].len == r->first_len && holo_memcmp(v[0].data, r->first_out, r->first_len) == 0;
  holo_session_counters(s, &c);
  sh_printf("board: warm session: store_hits=%llu store_misses=%llu dispatches=%llu, record 0 output %s\n",
            (unsigned long long)c.store_hits, (unsigned long long)c.store_misses,
            (unsigned long long)c.dispatches, same ? "identical" : "DIFFERS");
  holo_session_free(s);
  return same ? 0 : 1;
}

static void report(const run *r, size_t records) {
  board_heap_stats h = board_heap();
  sh_printf("board: execute %zu records: total %llu us, mean %llu us, max %llu us (host time under qemu)\n",
            records, (unsigned long long)(r->exec_ns_total / 1000),
            (unsigned long long)(r->exec_ns_total / 1000 / records),
            (unsigned long long)(r->exec_ns_max / 1000));
  sh_printf("board: heap peak_in_use=%zu peak_top=%zu capacity=%zu allocs=%u frees=%u failed=%u\n",
            h.peak_in_use, h.peak_top, h.capacity, h.allocs, h.frees, h.failed);
  sh_printf("board: stack peak=%zu capacity=%zu\n", board_stack_peak(), board_stack_capacity());
}

static int session_run(run *r) {
  holo_session *s;
  holo_error err = {0};
  uint64_t t0 = sh_elapsed_ns();
  if (load(r, &s, &err) != HOLO_OK) return fail("load", &err);
  sh_printf("board: load %llu us, label %s, backend %s (%s kernels)\n",
            (unsigned long long)((sh_elapsed_ns() - t0) / 1000), holo_session_archive_label(s),
            holo_session_backend_identity(s), holo_cpu_backend_variant());
  board_heap_stats h = board_heap();
  sh_printf("board: heap after load: in_use=%zu (session tables, graph memo, constant cone)\n", h.in_use);
  int rc = plan(r, s);
  size_t records = rc ? 0 : r->in_len / r->rec_in;
  for (size_t i = 0; i < records && rc == 0; i++)
    rc = execute_record(r, s, i);
  holo_counters c;
  holo_session_counters(s, &c);
  sh_printf("board: cold session: dispatches=%llu elided=%llu memo_hits=%llu store_puts=%llu\n",
            (unsigned long long)c.dispatches, (unsigned long long)c.elided, (unsigned long long)c.memo_hits,
            (unsigned long long)c.store_puts);
  holo_session_free(s);
  if (rc == 0) rc = warm_check(r);
  if (rc == 0) report(r, records);
  if (rc == 0) sh_printf("board: ok, %zu records\n", records);
  return rc;
}

static char *next_arg(char **p) {
  while (**p == ' ')
    (*p)++;
  if (!**p) return 0;
  char *a = *p;
  while (**p && **p != ' ')
    (*p)++;
  if (**p) *(*p)++ = 0;
  return a;
}

int main(void) {
  static char cmd[1024];
  static run r;
  char *p = cmd, *argv[4] = {0};
  int n = sh_cmdline(cmd, sizeof cmd - 1) ? 0 : -1;
  cmd[sizeof cmd - 1] = 0;
  while (n >= 0 && n < 4 && (argv[n] = next_arg(&p)))
    n++;
  if (n < 3) {
    sh_printf("usage: holo-board INPUTS OUTPUT [ARCHIVE]   (semihosting command line)\n");
    return 1;
  }
  r.archive = board_archive;
  r.archive_len = (size_t)(board_archive_end - board_archive);
  if (n == 4 && !(r.archive = read_file(argv[3], &r.archive_len))) {
    sh_printf("board: cannot read archive %s\n", argv[3]);
    return 1;
  }
  sh_printf("board: archive %s, %zu bytes\n", n == 4 ? argv[3] : "linked into the image", r.archive_len);
  if (!(r.inputs = read_file(argv[1], &r.in_len))) {
    sh_printf("board: cannot read inputs %s\n", argv[1]);
    return 1;
  }
  if ((r.out_fd = sh_open(argv[2], "wb")) < 0) {
    sh_printf("board: cannot create %s\n", argv[2]);
    return 1;
  }
  holo_cpu_backend_init(&r.be);
  holo_mem_store_init(&r.store, board_allocator());
  int rc = session_run(&r);
  sh_close(r.out_fd);
  holo_mem_store_release(&r.store);
  return rc;
}
