/* NumPy .npy files: read (format 1.0, 2.0, 3.0; little-endian; C order or a
 * Fortran order that is the same layout) and write (format 1.0 with the
 * header NumPy itself writes, so files compare byte for byte). */
#include <stdio.h>
#include <string.h>

#include "holo-cli.h"

static const struct {
  uint32_t dt;
  const char *name, *code; /* code: NumPy kind + size, as in the descr */
} DTYPES[] = {
    {HOLO_DT_F32, "float32", "f4"}, {HOLO_DT_F64, "float64", "f8"}, {HOLO_DT_F16, "float16", "f2"},
    {HOLO_DT_I8, "int8", "i1"},     {HOLO_DT_I16, "int16", "i2"},   {HOLO_DT_I32, "int32", "i4"},
    {HOLO_DT_I64, "int64", "i8"},   {HOLO_DT_U8, "uint8", "u1"},    {HOLO_DT_U16, "uint16", "u2"},
    {HOLO_DT_U32, "uint32", "u4"},  {HOLO_DT_U64, "uint64", "u8"},  {HOLO_DT_BOOL, "bool", "b1"},
};
#define N_DTYPES (sizeof DTYPES / sizeof DTYPES[0])

const char *cli_dtype_name(uint32_t dt) {
  if (dt == HOLO_DT_SEQ) return "sequence";
  if (dt == HOLO_DT_OPT) return "optional";
  for (size_t i = 0; i < N_DTYPES; i++)
    if (DTYPES[i].dt == dt) return DTYPES[i].name;
  return "unknown";
}

static const char *dtype_code(uint32_t dt) {
  for (size_t i = 0; i < N_DTYPES; i++)
    if (DTYPES[i].dt == dt) return DTYPES[i].code;
  return 0;
}

uint32_t cli_dtype_parse(const char *s) {
  if (!s) return 0;
  bool prefixed = (*s == '<' || *s == '|' || *s == '=');
  if (prefixed) s++;
  for (size_t i = 0; i < N_DTYPES; i++)
    if ((!prefixed && !strcmp(s, DTYPES[i].name)) || !strcmp(s, DTYPES[i].code)) return DTYPES[i].dt;
  if (!prefixed && !strcmp(s, "bool_")) return HOLO_DT_BOOL;
  return 0;
}

bool cli_is_npy(const uint8_t *b, size_t len) { return len >= 6 && !memcmp(b, "\x93NUMPY", 6); }

/* --- a small reader for the header's Python dict literal --- */
typedef struct { const char *p, *end; } rd;

static void ws(rd *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}
static bool lit(rd *r, char c) {
  ws(r);
  if (r->p < r->end && *r->p == c) {
    r->p++;
    return true;
  }
  return false;
}
static bool str(rd *r, char *out, size_t cap) {
  ws(r);
  if (r->p >= r->end || (*r->p != '\'' && *r->p != '"')) return false;
  char q = *r->p++;
  size_t n = 0;
  while (r->p < r->end && *r->p != q) {
    if (n + 1 >= cap) return false;
    out[n++] = *r->p++;
  }
  if (r->p >= r->end) return false;
  r->p++;
  out[n] = 0;
  return true;
}
static bool word(rd *r, const char *w) {
  ws(r);
  size_t n = strlen(w);
  if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n)) return false;
  r->p += n;
  return true;
}
static bool integer(rd *r, int64_t *v) {
  ws(r);
  int64_t x = 0;
  const char *s = r->p;
  while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
    if (x > (INT64_MAX - 9) / 10) return false;
    x = x * 10 + (*r->p++ - '0');
  }
  if (r->p < r->end && *r->p == 'L') r->p++; /* Python 2 longs */
  *v = x;
  return r->p != s;
}

#define WHY(...) (snprintf(why, cap, __VA_ARGS__), false)

bool cli_npy_parse(const uint8_t *b, size_t len, cli_npy *out, char *why, size_t cap) {
  memset(out, 0, sizeof *out);
  if (!cli_is_npy(b, len) || len < 10) return WHY("not a .npy file (bad magic)");
  uint8_t major = b[6];
  size_t hstart, hlen;
  if (major == 1) {
    hstart = 10;
    hlen = (size_t)b[8] | (size_t)b[9] << 8;
  } else if (major == 2 || major == 3) {
    if (len < 12) return WHY(".npy header truncated");
    hstart = 12;
    hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
  } else {
    return WHY(".npy format version %u.%u is not supported (1.0, 2.0, 3.0 are)", b[6], b[7]);
  }
  if (hlen > len - hstart) return WHY(".npy header length %zu exceeds the file", hlen);
  rd r = {(const char *)b + hstart, (const char *)b + hstart + hlen};
  bool have_descr = false, have_order = false, have_shape = false, fortran = false;
  char key[32], descr[32];
  if (!lit(&r, '{')) return WHY(".npy header is not a dict");
  while (!lit(&r, '}')) {
    if (!str(&r, key, sizeof key) || !lit(&r, ':')) return WHY(".npy header: malformed dict");
    if (!strcmp(key, "descr")) {
      if (!str(&r, descr, sizeof descr))
        return WHY(".npy dtype is not a simple type (structured arrays are not supported)");
      have_descr = true;
    } else if (!strcmp(key, "fortran_order")) {
      if (word(&r, "True")) fortran = true;
      else if (word(&r, "False")) fortran = false;
      else return WHY(".npy header: fortran_order is not True or False");
      have_order = true;
    } else if (!strcmp(key, "shape")) {
      if (!lit(&r, '(')) return WHY(".npy header: shape is not a tuple");
      while (!lit(&r, ')')) {
        int64_t d;
        if (out->rank >= HOLO_MAX_RANK) return WHY(".npy rank exceeds %d", HOLO_MAX_RANK);
        if (!integer(&r, &d)) return WHY(".npy header: shape holds a non-integer");
        out->shape[out->rank++] = d;
        if (!lit(&r, ',')) {
          if (!lit(&r, ')')) return WHY(".npy header: malformed shape tuple");
          break;
        }
      }
      have_shape = true;
    } else {
      return WHY(".npy header: unknown key '%s'", key);
    }
    if (!lit(&r, ',')) {
      if (!lit(&r, '}')) return WHY(".npy header: malformed dict");
      break;
    }
  }
  if (!have_descr || !have_order || !have_shape) return WHY(".npy header lacks descr, fortran_order or shape");
  /* dtype: byte order then kind+size */
  const char *code = descr;
  char order = '=';
  if (*code == '<' || *code == '>' || *code == '|' || *code == '=') order = *code++;
  uint32_t dt = 0;
  for (size_t i = 0; i < N_DTYPES; i++)
    if (!strcmp(code, DTYPES[i].code)) dt = DTYPES[i].dt;
  if (!strcmp(code, "?")) dt = HOLO_DT_BOOL;
  if (!strcmp(code, "B")) dt = HOLO_DT_U8;
  if (!strcmp(code, "b")) dt = HOLO_DT_I8;
  if (!dt) return WHY(".npy dtype '%s' is not supported (f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1 are)", descr);
  if (order == '>' && holo_dtype_size(dt) > 1) return WHY(".npy dtype '%s' is big-endian; only little-endian data is read", descr);
  if (fortran) {
    uint32_t big = 0;
    for (uint32_t d = 0; d < out->rank; d++) big += out->shape[d] > 1;
    if (big > 1) return WHY(".npy array is in Fortran order; save it in C order (np.ascontiguousarray)");
  }
  size_t need;
  if (!holo_shape_bytes(dt, out->shape, out->rank, &need)) return WHY(".npy shape is too large for this build");
  size_t have = len - hstart - hlen;
  if (have != need) return WHY(".npy data is %zu bytes; dtype %s and the shape need %zu", have, descr, need);
  out->dtype = dt;
  out->data = b + hstart + hlen;
  out->len = need;
  snprintf(out->descr, sizeof out->descr, "%s", descr);
  return true;
}

size_t cli_npy_header(uint32_t dtype, const int64_t *shape, uint32_t rank, char *out, size_t cap) {
  const char *code = dtype_code(dtype);
  if (!code || cap < 640) return 0;
  char dict[512];
  int n = snprintf(dict, sizeof dict, "{'descr': '%c%s', 'fortran_order': False, 'shape': (",
                   holo_dtype_size(dtype) == 1 ? '|' : '<', code);
  for (uint32_t d = 0; d < rank; d++)
    n += snprintf(dict + n, sizeof dict - (size_t)n, d ? ", %lld" : "%lld", (long long)shape[d]);
  n += snprintf(dict + n, sizeof dict - (size_t)n, rank == 1 ? ",), }" : "), }");
  /* NumPy >= 1.23 leaves room for the first axis to grow to 21 digits. */
  if (rank > 0) {
    int digits = snprintf(0, 0, "%lld", (long long)shape[0]);
    for (int k = digits; k < 21; k++) dict[n++] = ' ';
  }
  /* magic(6) + version(2) + u16 length + dict + padding + '\n': a multiple
   * of 64, with NumPy's padding rule (1..64 spaces, never 0). */
  size_t unpadded = 10 + (size_t)n + 1, total = unpadded + 64 - unpadded % 64;
  size_t hlen = total - 10;
  memcpy(out, "\x93NUMPY\x01\x00", 8);
  out[8] = (char)(hlen & 0xff);
  out[9] = (char)(hlen >> 8);
  memcpy(out + 10, dict, (size_t)n);
  memset(out + 10 + n, ' ', total - 10 - (size_t)n - 1);
  out[total - 1] = '\n';
  return total;
}
