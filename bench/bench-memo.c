/* `make bench-memo` (native): memo-hit latency against graph size, full
 * execution of the same graphs, and the cost of deriving one computed
 * label over operands of 1 KiB vs 64 MiB. Medians of repeated runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hologram/cpu_backend.h"
#include "holo-std.h"
#include "session-internal.h"

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  return v[n / 2];
}

static holo_session *open_archive(const char *path, uint8_t **bytes, holo_backend *be) {
  size_t len;
  holo_error err = {0};
  if (holo_read_file(path, bytes, &len, &err)) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    exit(1);
  }
  holo_cpu_backend_init(be);
  holo_options o = {holo_std_allocator(), 0, 0, 0};
  holo_session *s;
  if (holo_session_load(*bytes, len, be, &o, &s, &err)) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    exit(1);
  }
  return s;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "build/bench";
  char path[512];
  double hit[3], full[3];
  const int ns[3] = {10, 1000, 10000};
  static float x[1024];
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof path, "%s/chain-%d.holo", dir, ns[k]);
    uint8_t *bytes;
    holo_backend be;
    holo_session *s = open_archive(path, &bytes, &be);
    int reps = ns[k] >= 10000 ? 5 : 21;
    double t[64], m[201];
    holo_input in = {x, sizeof x, 0, 0};
    holo_view v;
    holo_error err;
    for (int r = 0; r < reps; r++) {
      for (int i = 0; i < 1024; i++) x[i] = (float)((i * 7 + r * 13) % 101) - 50.0f;
      double a = now_us();
      if (holo_execute_addressed(s, &in, 1, &v, 1, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
      t[r] = now_us() - a;
    }
    for (int r = 0; r < 201; r++) { /* the last input again: memo hits */
      double a = now_us();
      if (holo_execute_addressed(s, &in, 1, &v, 1, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
      m[r] = now_us() - a;
    }
    holo_counters cn;
    holo_session_counters(s, &cn);
    full[k] = median(t, reps);
    hit[k] = median(m, 201);
    printf("{\"bench\":\"memo\",\"target\":\"native\",\"nodes\":%d,\"full_us\":%.2f,\"memo_hit_us\":%.3f,"
           "\"dispatches\":%llu,\"memo_hits\":%llu,\"runs\":%d}\n",
           ns[k], full[k], hit[k], (unsigned long long)cn.dispatches, (unsigned long long)cn.memo_hits, reps);
    holo_session_free(s);
    free(bytes);
  }
  double lab[2];
  const char *names[2] = {"1KiB", "64MiB"};
  for (int k = 0; k < 2; k++) {
    snprintf(path, sizeof path, "%s/label-%s.holo", dir, names[k]);
    uint8_t *bytes;
    holo_backend be;
    holo_session *s = open_archive(path, &bytes, &be);
    size_t n = k ? (64u << 20) : 1024;
    float *in_bytes = calloc(n, 1);
    holo_input in = {in_bytes, n, 0, 0};
    holo_view v;
    holo_error err;
    if (holo_execute_addressed(s, &in, 1, &v, 1, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
    double t[101];
    holo_digest d;
    for (int r = 0; r < 101; r++) {
      double a = now_us();
      for (int i = 0; i < 1000; i++) holo__probe_node_label(s, 0, 0, &d);
      t[r] = (now_us() - a) / 1000;
    }
    lab[k] = median(t, 101);
    printf("{\"bench\":\"label\",\"target\":\"native\",\"operand\":\"%s\",\"label_us\":%.4f}\n", names[k], lab[k]);
    free(in_bytes);
    holo_session_free(s);
    free(bytes);
  }
  for (int k = 0; k < 3; k++) printf("memo_hit_us n=%d %.3f (full execution %.1f us, %.0fx)\n", ns[k], hit[k], full[k], full[k] / hit[k]);
  printf("memo_hit_ratio_10000_vs_10=%.3f\n", hit[2] / hit[0]);
  printf("label_cost_ratio_64MiB_vs_1KiB=%.3f\n", lab[1] / lab[0]);
  return 0;
}
