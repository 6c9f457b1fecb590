/* `holo info`: what an archive is and what loading it cost, all from the
 * public session API (only `holo dump` reads the archive's internals). */
#include <stdio.h>
#include <string.h>

#include "holo-cli.h"
#include "hologram/cpu_backend.h"

static void text(const char *p, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (ch < 0x20 || ch == 0x7f) printf("\\x%02x", ch); /* keep one line per entry */
    else putchar(ch);
  }
}

static void port(const char *kind, uint32_t i, const holo_port_info *p) {
  printf("%s %u ", kind, i);
  text(p->name, p->name_len);
  printf(": %s ", cli_dtype_name(p->dtype));
  if (p->rank == 255) {
    printf("[?]\n");
    return;
  }
  printf("[");
  for (uint32_t d = 0; d < p->rank; d++) {
    if (d) printf(",");
    if (p->shape[d] < 0) text(p->symbol[d], p->symbol_len[d]);
    else printf("%lld", (long long)p->shape[d]);
  }
  printf("]\n");
}

/* "ops: MatMul=3 Add=3 Relu=2": node counts by op, in order of first use
 * (an archive has a few dozen distinct ops; past MAX_OPS the rest are
 * counted together as "...=N"). */
#define MAX_OPS 256
static void ops(const holo_session *s, uint32_t nodes) {
  struct {
    holo_span op;
    uint32_t n;
  } t[MAX_OPS];
  uint32_t nt = 0, rest = 0;
  for (uint32_t i = 0; i < nodes; i++) {
    holo_span op;
    if (holo_session_node_op(s, i, &op)) continue;
    uint32_t k = 0;
    while (k < nt && !(t[k].op.len == op.len && !memcmp(t[k].op.data, op.data, op.len))) k++;
    if (k == nt && nt == MAX_OPS) {
      rest++;
      continue;
    }
    if (k == nt) t[nt++].op = op, t[k].n = 0;
    t[k].n++;
  }
  printf("ops:");
  for (uint32_t k = 0; k < nt; k++) {
    putchar(' ');
    text(t[k].op.data, (uint32_t)t[k].op.len);
    printf("=%u", t[k].n);
  }
  if (rest) printf(" ...=%u", rest);
  printf("\n");
}

int cli_info(holo_session *s, const cli *c, const uint8_t *bytes, size_t len, double load_ms) {
  (void)bytes;
  holo_archive_info ar;
  holo_session_archive_info(s, &ar);
  /* Two fields: the kernel variant compiled in (what runs: scalar, simd128,
   * relaxed-simd) and the backend identity that enters every computed label
   * (variants with the same bytes share it: simd128 labels as scalar). */
  printf("archive: %s\nbytes: %zu\nlabel: %s\nvariant: %s\nidentity: %s\nkernels: %u\n", c->file, len,
         holo_session_archive_label(s), holo_cpu_backend_variant(), holo_session_backend_identity(s),
         holo_session_kernel_count(s));
  printf("values: %u\nconstants: %u\nnodes: %u\n", ar.values, ar.constants, ar.nodes);
  ops(s, ar.nodes);
  for (uint32_t i = 0; i < ar.metadata; i++) {
    holo_span key, value;
    holo_session_metadata(s, i, &key, &value);
    printf("metadata ");
    text(key.data, (uint32_t)key.len);
    printf(": ");
    text(value.data, (uint32_t)value.len);
    printf("\n");
  }
  holo_port_info p;
  for (uint32_t i = 0; i < holo_session_input_count(s); i++) {
    holo_session_input_info(s, i, &p);
    port("input", i, &p);
  }
  for (uint32_t i = 0; i < holo_session_output_count(s); i++) {
    holo_session_output_info(s, i, &p);
    port("output", i, &p);
  }
  printf("load_ms: %.3f\n", load_ms);
  cli_print_counters("load", s);
  return 0;
}
