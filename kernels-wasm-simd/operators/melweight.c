/* MelWeightMatrix (opset 17): the [floor(dft_length / 2) + 1, num_mel_bins]
 * matrix of triangular filters, as the ONNX reference builds it: with
 * mel(f) = 2595 log10(1 + f / 700) and its inverse, num_mel_bins + 2 edges
 * evenly spaced in mel from mel(lower_edge_hertz) by
 * (mel(upper) - mel(lower)) / (num_mel_bins + 2), each mapped back to hertz
 * and to the bin floor((dft_length + 1) hz / sample_rate); filter i rises
 * from edge i to edge i + 1 ((j - lo) / (c - lo), 1 at a zero-width rise)
 * and falls to edge i + 2 ((hi - j) / (hi - c)). Computed in double, cast
 * once to output_datatype (default f32; any numeric). Inputs 0-2 are i32/i64
 * scalars, 3-4 float scalars. A filter that would write outside the matrix
 * (an edge below bin 0 or past the last bin) is refused, as onnxruntime
 * does. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "math/mathlib.h"
#include "microkernels/cast.h"
#include "operators/operators.h"

/* num_mel_bins beyond this is refused before any loop runs over the edges. */
#define MEL_MAX_BINS (1 << 24)

typedef struct {
  int64_t mels, bins; /* output [bins, mels] */
  uint32_t dt;
  double n, rate, lo, step; /* dft_length, sample_rate, the first edge and the step in mel */
} mel_plan;

static holo_status mel_scalar(holo_kernel_call *c, uint32_t idx, bool is_int, double *v) {
  static const char *const names[] = {"num_mel_bins", "dft_length", "sample_rate", "lower_edge_hertz",
                                      "upper_edge_hertz"};
  holo_status st = holo_k_check_input(c, "MelWeightMatrix", idx, 0);
  if (st) return st;
  const holo_tensor *t = &c->inputs[idx];
  bool ok = is_int ? (t->dtype == HOLO_DT_I32 || t->dtype == HOLO_DT_I64) : holo_k_is_float(t->dtype);
  if (!ok || holo_k_prod(t->shape, 0, t->rank) != 1 || t->rank > 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "MelWeightMatrix: %s must be a%s scalar", names[idx],
                       is_int ? "n i32 or i64" : " float");
  *v = is_int ? (double)holo_k_load_i64(t->data, t->dtype, 0) : holo_k_load_f64(t->data, t->dtype, 0);
  return HOLO_OK;
}

static double mel_of(double hz) { return 2595.0 * holo_log(1.0 + hz / 700.0) / holo_log(10.0); }
static double hz_of(double mel) { return 700.0 * (holo_pow(10.0, mel / 2595.0) - 1.0); }

/* Edge i as a bin (a double holding an integer, or out of range). */
static double mel_edge(const mel_plan *p, int64_t i) {
  return holo_floor((p->n + 1) * hz_of(p->lo + p->step * (double)i) / p->rate);
}

static holo_status mel_check(holo_kernel_call *c, mel_plan *p) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "MelWeightMatrix", 5, 5, 1))) return st;
  double v[5];
  for (uint32_t i = 0; i < 5; i++)
    if ((st = mel_scalar(c, i, i < 3, &v[i]))) return st;
  int64_t d = holo_attr_int(c, "output_datatype", HOLO_DT_F32);
  if (d <= 0 || d > 0xffff || d == HOLO_DT_BOOL || !holo_k_numeric((uint32_t)d))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "MelWeightMatrix: output_datatype %lld is not supported",
                       (long long)d);
  p->dt = (uint32_t)d;
  if (v[0] < 1 || v[0] > MEL_MAX_BINS)
    return holo_k_fail(c, v[0] < 1 ? HOLO_ERR_KERNEL : HOLO_ERR_LIMIT,
                       "MelWeightMatrix: num_mel_bins %.0f is outside [1, 2^24]", v[0]);
  if (v[1] < 1 || v[1] > 1e15 || v[2] < 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "MelWeightMatrix: dft_length and sample_rate must be positive");
  p->mels = (int64_t)v[0];
  p->bins = (int64_t)v[1] / 2 + 1;
  p->n = v[1];
  p->rate = v[2];
  p->lo = mel_of(v[3]);
  p->step = (mel_of(v[4]) - p->lo) / (double)(p->mels + 2);
  for (int64_t i = 0; i < p->mels + 2; i++) {
    double b = mel_edge(p, i);
    if (!(b >= 0 && b < (double)p->bins))
      return holo_k_fail(
          c, HOLO_ERR_KERNEL,
          "MelWeightMatrix: filter edge %lld is bin %.0f, outside the %lld bins of dft_length %.0f "
          "at sample_rate %.0f",
          (long long)i, b, (long long)p->bins, v[1], v[2]);
  }
  uint64_t f[2] = {(uint64_t)p->bins, (uint64_t)p->mels + 2};
  c->work = holo_k_work(2, f);
  return HOLO_OK;
}

holo_status holo_k_melweightmatrix_infer(holo_kernel_call *c) {
  holo_status st;
  mel_plan p;
  holo_k_infer_reset(c);
  if ((st = mel_check(c, &p))) return st;
  int64_t shape[2] = {p.bins, p.mels};
  return holo_k_set_output(c, "MelWeightMatrix", 0, p.dt, 2, shape);
}

holo_status holo_k_melweightmatrix_run(holo_kernel_call *c) {
  mel_plan p;
  if (mel_check(c, &p)) return HOLO_ERR_KERNEL;
  const size_t es = holo_dtype_size(p.dt), M = (size_t)p.mels;
  uint8_t *y = c->outputs[0].data;
  const double zero = 0;
  for (size_t k = 0; k < (size_t)p.bins * M; k++)
    holo_ukernel_cast_numeric__scalar(HOLO_DT_F64, p.dt, 1, &zero, y + k * es);
  for (size_t i = 0; i < M; i++) {
    int64_t lo = (int64_t)mel_edge(&p, (int64_t)i), ce = (int64_t)mel_edge(&p, (int64_t)i + 1),
            hi = (int64_t)mel_edge(&p, (int64_t)i + 2);
    double v;
    if (ce == lo) {
      v = 1;
      holo_ukernel_cast_numeric__scalar(HOLO_DT_F64, p.dt, 1, &v, y + ((size_t)ce * M + i) * es);
    }
    for (int64_t j = lo; j <= ce && ce > lo; j++) {
      v = (double)(j - lo) / (double)(ce - lo);
      holo_ukernel_cast_numeric__scalar(HOLO_DT_F64, p.dt, 1, &v, y + ((size_t)j * M + i) * es);
    }
    /* the falling side overwrites the peak, as the reference's second loop does */
    for (int64_t j = ce; j < hi; j++) {
      v = (double)(hi - j) / (double)(hi - ce);
      holo_ukernel_cast_numeric__scalar(HOLO_DT_F64, p.dt, 1, &v, y + ((size_t)j * M + i) * es);
    }
  }
  return HOLO_OK;
}
