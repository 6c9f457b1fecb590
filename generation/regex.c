/* A regex-subset constraint for ConstrainedSampler: a sequence of atoms
 * with * + ? quantifiers over a one-byte-per-token vocabulary. The automaton
 * state is the set of atom positions that may come next (bit n: accept),
 * advanced incrementally one generated token at a time. */
#include "hologram/generate.h"

#include "hologram/error.h"
#include "hologram/mem.h"

static void set_bit(uint8_t *set, uint8_t c) { set[c >> 3] |= (uint8_t)(1u << (c & 7)); }
static bool has_bit(const uint8_t *set, uint8_t c) { return (set[c >> 3] >> (c & 7)) & 1; }

holo_status holo_regex_compile(holo_regex *re, const char *pat, const uint8_t *token_bytes, const uint8_t *token_valid,
                               uint32_t vocab, int64_t eos, holo_error *err) {
  if (!re || !pat || !token_bytes || !vocab) return holo_err(err, HOLO_ERR_ARG, "regex: NULL pattern or vocabulary");
  holo_memset(re, 0, sizeof *re);
  re->token_bytes = token_bytes;
  re->token_valid = token_valid;
  re->vocab = vocab;
  re->eos = eos;
  size_t i = 0;
  while (pat[i]) {
    if (re->n >= HOLO_REGEX_MAX_ATOMS)
      return holo_err(err, HOLO_ERR_LIMIT, "regex: more than %d atoms", HOLO_REGEX_MAX_ATOMS);
    uint8_t *set = re->set[re->n];
    char ch = pat[i];
    if (ch == '*' || ch == '+' || ch == '?')
      return holo_err(err, HOLO_ERR_ARG, "regex: quantifier '%c' at %zu has nothing to repeat", ch, i);
    if (ch == '(' || ch == ')' || ch == '|' || ch == '{' || ch == '^' || ch == '$')
      return holo_err(err, HOLO_ERR_UNSUPPORTED, "regex: '%c' at %zu is outside the supported subset", ch, i);
    if (ch == '.') {
      for (int c = 0; c < 256; c++)
        if (c != '\n') set_bit(set, (uint8_t)c);
      i++;
    } else if (ch == '\\') {
      if (!pat[i + 1]) return holo_err(err, HOLO_ERR_ARG, "regex: trailing backslash");
      char e = pat[i + 1];
      if (e == 'd')
        for (int c = '0'; c <= '9'; c++) set_bit(set, (uint8_t)c);
      else if (e == 's')
        set_bit(set, ' '), set_bit(set, '\t'), set_bit(set, '\n');
      else if (e == 'n')
        set_bit(set, '\n');
      else
        set_bit(set, (uint8_t)e);
      i += 2;
    } else if (ch == '[') {
      size_t j = i + 1;
      bool neg = pat[j] == '^';
      if (neg) j++;
      uint8_t tmp[32] = {0};
      bool first = true;
      while (pat[j] && (pat[j] != ']' || first)) {
        first = false;
        uint8_t lo = (uint8_t)pat[j];
        if (lo == '\\' && pat[j + 1]) lo = (uint8_t)pat[++j];
        if (pat[j + 1] == '-' && pat[j + 2] && pat[j + 2] != ']') {
          uint8_t hi = (uint8_t)pat[j + 2];
          if (hi < lo) return holo_err(err, HOLO_ERR_ARG, "regex: empty range %c-%c", lo, hi);
          for (unsigned c = lo; c <= hi; c++) set_bit(tmp, (uint8_t)c);
          j += 3;
        } else {
          set_bit(tmp, lo);
          j++;
        }
      }
      if (pat[j] != ']') return holo_err(err, HOLO_ERR_ARG, "regex: unterminated class at %zu", i);
      for (int b = 0; b < 32; b++) set[b] = neg ? (uint8_t)~tmp[b] : tmp[b];
      i = j + 1;
    } else {
      set_bit(set, (uint8_t)ch);
      i++;
    }
    if (pat[i] == '*' || pat[i] == '+' || pat[i] == '?') re->quant[re->n] = (uint8_t)pat[i++];
    re->n++;
  }
  /* Live positions: accept, or an atom the vocabulary can match (or skip)
   * followed by a live position. */
  re->live = 1ull << re->n;
  for (uint32_t p = re->n; p-- > 0;) {
    bool next = (re->live >> (p + 1)) & 1, can = false;
    for (uint32_t t = 0; t < vocab && !can; t++)
      can = (!token_valid || token_valid[t]) && (eos < 0 || (int64_t)t != eos) && has_bit(re->set[p], token_bytes[t]);
    if (next && (can || re->quant[p] == '*' || re->quant[p] == '?')) re->live |= 1ull << p;
  }
  re->done = 0;
  re->cur = 0;
  return HOLO_OK;
}

/* Epsilon closure: from position p an optional atom lets p + 1 through. */
static uint64_t closure(const holo_regex *re, uint64_t s) {
  for (uint32_t p = 0; p < re->n; p++)
    if ((s >> p & 1) && (re->quant[p] == '*' || re->quant[p] == '?')) s |= 1ull << (p + 1);
  return s;
}

static uint64_t start(const holo_regex *re) { return closure(re, 1); }

static uint64_t step(const holo_regex *re, uint64_t s, uint8_t c) {
  uint64_t t = 0;
  for (uint32_t p = 0; p < re->n; p++) {
    if (!(s >> p & 1) || !has_bit(re->set[p], c)) continue;
    t |= 1ull << (p + 1);
    if (re->quant[p] == '*' || re->quant[p] == '+') t |= 1ull << p;
  }
  return closure(re, t);
}

bool holo_regex_match(const holo_regex *re, const uint8_t *text, size_t len) {
  uint64_t s = start(re);
  for (size_t i = 0; i < len && s; i++) s = step(re, s, text[i]);
  return (s >> re->n) & 1;
}

holo_status holo_regex_mask(void *ctx, const uint32_t *gen, uint32_t n, uint8_t *allowed, uint32_t vocab) {
  holo_regex *re = ctx;
  if (!re || vocab != re->vocab) return HOLO_ERR_ARG;
  /* Incremental when the history grew by exactly the tokens seen; else rebuilt. */
  if (n < re->done) re->done = 0, re->cur = start(re);
  if (re->done == 0) re->cur = start(re);
  for (; re->done < n; re->done++) {
    uint32_t t = gen[re->done];
    if (t >= vocab || (re->token_valid && !re->token_valid[t]) || (re->eos >= 0 && (int64_t)t == re->eos)) {
      re->cur = 0;
      continue;
    }
    re->cur = step(re, re->cur, re->token_bytes[t]);
  }
  for (uint32_t t = 0; t < vocab; t++) {
    if (re->eos >= 0 && (int64_t)t == re->eos) {
      allowed[t] = (uint8_t)((re->cur >> re->n) & 1);
      continue;
    }
    if (re->token_valid && !re->token_valid[t]) {
      allowed[t] = 0;
      continue;
    }
    uint64_t nx = step(re, re->cur, re->token_bytes[t]);
    allowed[t] = (nx & re->live) != 0;
  }
  return HOLO_OK;
}
