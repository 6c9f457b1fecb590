#include <stdbool.h>

#include "math/bits.h"
#include "math/mathlib.h"

double holo_pow(double x, double y) {
  if (y == 0) return 1.0;
  if (x == 1.0) return 1.0;
  if (x != x || y != y) return x + y;
  double ay = __builtin_fabs(y), ax = __builtin_fabs(x);
  if (ay == __builtin_inf()) {
    if (ax == 1.0) return 1.0;
    return ((ax > 1.0) == (y > 0)) ? __builtin_inf() : 0.0;
  }
  bool yint = holo_rint(y) == y;
  if (yint && ay <= 65536.0) {
    uint32_t n = (uint32_t)ay;
    double r = 1.0, b = x;
    while (n) {
      if (n & 1) r *= b;
      n >>= 1;
      if (n) b *= b;
    }
    return y < 0 ? 1.0 / r : r;
  }
  bool neg = false;
  if (x < 0) {
    if (!yint) return __builtin_nan("");
    neg = ay < 9007199254740992.0 && holo_fmod(ay, 2.0) == 1.0;
  }
  double r;
  if (ax == 0) r = y > 0 ? 0.0 : __builtin_inf();
  else if (ax == __builtin_inf()) r = y > 0 ? __builtin_inf() : 0.0;
  else r = holo_exp(y * holo_log(ax));
  return neg ? -r : r;
}
