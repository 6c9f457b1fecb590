/* The one parser of every numeric flag value of every verb (docs/cli.md):
 * the whole string or nothing. strtoul and friends alone turn "abc" into 0,
 * "12x" into 12, "-1" into 2^64-1 and "1e999" into inf; a flag given such a
 * value would run with a number the user never wrote. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "holo-cli.h"

bool cli_parse_u64(const char *s, uint64_t *out, bool suffix) {
  if (!s || *s < '0' || *s > '9') return false; /* no sign, no space, not empty */
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno) return false;
  uint64_t mul = 1;
  if (suffix && *end) {
    switch (*end) {
    case 'k':
    case 'K': mul = 1ull << 10; break;
    case 'm':
    case 'M': mul = 1ull << 20; break;
    case 'g':
    case 'G': mul = 1ull << 30; break;
    default: return false;
    }
    end++;
    if (*end == 'i' && end[1] == 'B')
      end += 2;
    else if (*end == 'B')
      end++;
  }
  if (*end || (v && mul > UINT64_MAX / v)) return false;
  *out = (uint64_t)v * mul;
  return true;
}

bool cli_parse_f64(const char *s, double *out) {
  if (!s) return false;
  const char *p = s + (*s == '-' || *s == '+');
  /* a digit or a point first: no space, no inf/nan; no hex floats */
  if (!((*p >= '0' && *p <= '9') || *p == '.') || strpbrk(s, "xXpP")) return false;
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (errno || *end || end == s || !isfinite(v)) return false;
  *out = v;
  return true;
}

int cli_flag_u64(const char *flag, const char *v, uint64_t lo, uint64_t hi, uint64_t *out) {
  uint64_t u = 0;
  if (!cli_parse_u64(v, &u, false) || u < lo || u > hi)
    return cli_fail(CLI_USAGE, "%s '%s': expected an integer from %llu to %llu", flag, v,
                    (unsigned long long)lo, (unsigned long long)hi);
  *out = u;
  return 0;
}

int cli_flag_bytes(const char *flag, const char *v, uint64_t *out) {
  uint64_t u = 0;
  if (!cli_parse_u64(v, &u, true) || u == 0)
    return cli_fail(CLI_USAGE, "%s '%s': expected a positive byte count like 1073741824 or 1g", flag, v);
  *out = u;
  return 0;
}

int cli_flag_u32(const char *flag, const char *v, uint32_t lo, uint32_t hi, uint32_t *out) {
  uint64_t u = 0;
  int rc = cli_flag_u64(flag, v, lo, hi, &u);
  if (!rc) *out = (uint32_t)u;
  return rc;
}

int cli_flag_f32(const char *flag, const char *v, double lo, double hi, bool lo_open, bool hi_open,
                 float *out) {
  double d;
  bool ok = cli_parse_f64(v, &d) && fabs(d) <= FLT_MAX && (lo_open ? d > lo : d >= lo) &&
            (hi_open ? d < hi : d <= hi);
  if (ok) {
    *out = (float)d;
    return 0;
  }
  if (lo == -HUGE_VAL && hi == HUGE_VAL)
    return cli_fail(CLI_USAGE, "%s '%s': expected a finite number", flag, v);
  if (hi == HUGE_VAL)
    return cli_fail(CLI_USAGE, "%s '%s': expected a finite number %s %g", flag, v, lo_open ? ">" : ">=", lo);
  return cli_fail(CLI_USAGE, "%s '%s': expected a number in %c%g, %g%c", flag, v, lo_open ? '(' : '[', lo, hi,
                  hi_open ? ')' : ']');
}
