/* A regex-subset constraint for ConstrainedSampler: atoms, groups,
 * alternation and * + ? quantifiers over a token domain (a token is one
 * byte, or a byte string: a multi-byte token steps the automaton per byte).
 * Compiled by Glushkov's construction while parsing (no tree: each
 * subexpression is summarised by its first/last position sets and whether it
 * matches empty), so the automaton state is the set of positions that may
 * come next (bit n: accept), advanced one generated token at a time. */
#include "hologram/generate.h"

#include "hologram/error.h"
#include "hologram/mem.h"

static void set_bit(uint8_t *set, uint8_t c) { set[c >> 3] |= (uint8_t)(1u << (c & 7)); }
static bool has_bit(const uint8_t *set, uint8_t c) { return (set[c >> 3] >> (c & 7)) & 1; }

/* A parsed subexpression: its first and last positions; nullable if it can match "". */
typedef struct {
  uint64_t first, last;
  bool nullable;
} frag;

typedef struct {
  holo_regex *re;
  const char *pat;
  size_t i;
  holo_error *err;
} parser;

static void link_sets(holo_regex *re, uint64_t from, uint64_t to) {
  for (uint32_t p = 0; p < re->n; p++)
    if (from >> p & 1) re->follow[p] |= to;
}

static frag concat(holo_regex *re, frag a, frag b) {
  link_sets(re, a.last, b.first);
  frag r = {a.first | (a.nullable ? b.first : 0), b.last | (b.nullable ? a.last : 0),
            a.nullable && b.nullable};
  return r;
}

static holo_status parse_class(parser *ps, uint8_t *set) {
  const char *pat = ps->pat;
  size_t j = ps->i + 1;
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
      if (hi < lo) return holo_err(ps->err, HOLO_ERR_ARG, "regex: empty range %c-%c", lo, hi);
      for (unsigned c = lo; c <= hi; c++)
        set_bit(tmp, (uint8_t)c);
      j += 3;
    } else {
      set_bit(tmp, lo);
      j++;
    }
  }
  if (pat[j] != ']') return holo_err(ps->err, HOLO_ERR_ARG, "regex: unterminated class at %zu", ps->i);
  for (int b = 0; b < 32; b++)
    set[b] = neg ? (uint8_t)~tmp[b] : tmp[b];
  ps->i = j + 1;
  return HOLO_OK;
}

/* One atom (not a group) as a new position. */
static holo_status parse_atom(parser *ps, frag *out) {
  holo_regex *re = ps->re;
  if (re->n >= HOLO_REGEX_MAX_ATOMS)
    return holo_err(ps->err, HOLO_ERR_LIMIT, "regex: more than %d atoms", HOLO_REGEX_MAX_ATOMS);
  uint8_t *set = re->set[re->n];
  const char *pat = ps->pat;
  char ch = pat[ps->i];
  if (ch == '.') {
    for (int c = 0; c < 256; c++)
      if (c != '\n') set_bit(set, (uint8_t)c);
    ps->i++;
  } else if (ch == '\\') {
    char e = pat[ps->i + 1];
    if (!e) return holo_err(ps->err, HOLO_ERR_ARG, "regex: trailing backslash");
    if (e == 'd')
      for (int c = '0'; c <= '9'; c++)
        set_bit(set, (uint8_t)c);
    else if (e == 's')
      set_bit(set, ' '), set_bit(set, '\t'), set_bit(set, '\n');
    else if (e == 'n')
      set_bit(set, '\n');
    else
      set_bit(set, (uint8_t)e);
    ps->i += 2;
  } else if (ch == '[') {
    holo_status st = parse_class(ps, set);
    if (st != HOLO_OK) return st;
  } else {
    set_bit(set, (uint8_t)ch);
    ps->i++;
  }
  uint64_t bit = 1ull << re->n++;
  out->first = out->last = bit;
  out->nullable = false;
  return HOLO_OK;
}

static holo_status parse_alt(parser *ps, uint32_t depth, frag *out);

/* An atom or a parenthesised group, then an optional quantifier. */
static holo_status parse_piece(parser *ps, uint32_t depth, frag *out) {
  const char *pat = ps->pat;
  char ch = pat[ps->i];
  holo_status st;
  if (ch == '*' || ch == '+' || ch == '?')
    return holo_err(ps->err, HOLO_ERR_ARG, "regex: quantifier '%c' at %zu has nothing to repeat", ch, ps->i);
  if (ch == '{' || ch == '^' || ch == '$')
    return holo_err(ps->err, HOLO_ERR_UNSUPPORTED, "regex: '%c' at %zu is outside the supported subset", ch,
                    ps->i);
  if (ch == '(') {
    if (depth >= HOLO_REGEX_MAX_DEPTH)
      return holo_err(ps->err, HOLO_ERR_LIMIT, "regex: groups nested deeper than %d", HOLO_REGEX_MAX_DEPTH);
    size_t open = ps->i++;
    if ((st = parse_alt(ps, depth + 1, out)) != HOLO_OK) return st;
    if (pat[ps->i] != ')') return holo_err(ps->err, HOLO_ERR_ARG, "regex: unclosed group at %zu", open);
    ps->i++;
  } else if ((st = parse_atom(ps, out)) != HOLO_OK) {
    return st;
  }
  char q = pat[ps->i];
  if (q == '*' || q == '+') link_sets(ps->re, out->last, out->first);
  if (q == '*' || q == '?') out->nullable = true;
  if (q == '*' || q == '+' || q == '?') ps->i++;
  return HOLO_OK;
}

/* Alternatives of concatenations, up to ')' or the end. */
static holo_status parse_alt(parser *ps, uint32_t depth, frag *out) {
  frag alt = {0, 0, false};
  bool any = false;
  for (;;) {
    frag seq = {0, 0, true};
    while (ps->pat[ps->i] && ps->pat[ps->i] != '|' && ps->pat[ps->i] != ')') {
      frag f = {0, 0, false};
      holo_status st = parse_piece(ps, depth, &f);
      if (st != HOLO_OK) return st;
      seq = concat(ps->re, seq, f);
    }
    alt.first |= seq.first, alt.last |= seq.last;
    alt.nullable = any ? alt.nullable || seq.nullable : seq.nullable;
    any = true;
    if (ps->pat[ps->i] != '|') break;
    ps->i++;
  }
  *out = alt;
  return HOLO_OK;
}

/* A token's bytes; false for a token that is no character (none, invalid). */
static bool token_span(const holo_regex *re, uint32_t t, const uint8_t **p, uint32_t *len) {
  if (re->token_off) {
    *p = re->token_bytes + re->token_off[t];
    *len = re->token_off[t + 1] - re->token_off[t];
    return *len != 0;
  }
  if (re->token_valid && !re->token_valid[t]) return false;
  *p = re->token_bytes + t, *len = 1;
  return true;
}

/* Positions set in s that match byte c, followed: the set after c (up to
 * s's highest bit only). */
static uint64_t step(const holo_regex *re, uint64_t s, uint8_t c) {
  uint64_t t = 0;
  s &= ~(1ull << re->n); /* accept has no follow: a byte past the end dies */
  for (uint32_t p = 0; s; p++, s >>= 1)
    if ((s & 1) && has_bit(re->set[p], c)) t |= re->follow[p];
  return t;
}

/* The set after a token's bytes (0 as soon as it dies). */
static uint64_t step_token(const holo_regex *re, uint64_t s, const uint8_t *b, uint32_t len) {
  for (uint32_t i = 0; i < len && s; i++)
    s = step(re, s, b[i]);
  return s;
}

static bool is_eos(const holo_regex *re, uint32_t t) { return re->eos >= 0 && (int64_t)t == re->eos; }

/* Live positions: accept, or a position from which some token leads to a
 * set holding a live position. A step is a union over the set's positions,
 * so "some token from {p} reaches a live set" is "some position of
 * reach[p] (the union over tokens of the set after that token from {p}) is
 * live": one pass over the vocabulary per position, then a fixed point over
 * positions (groups make cycles). Exact for multi-byte tokens too. */
static uint64_t live_set(const holo_regex *re) {
  uint64_t reach[HOLO_REGEX_MAX_ATOMS];
  for (uint32_t p = 0; p < re->n; p++) {
    reach[p] = 0;
    for (uint32_t t = 0; t < re->vocab; t++) {
      const uint8_t *b;
      uint32_t len;
      if (is_eos(re, t) || !token_span(re, t, &b, &len)) continue;
      reach[p] |= step_token(re, 1ull << p, b, len);
    }
  }
  uint64_t live = 1ull << re->n, prev = 0;
  while (live != prev) {
    prev = live;
    for (uint32_t p = 0; p < re->n; p++)
      if (reach[p] & live) live |= 1ull << p;
  }
  return live;
}

static holo_status compile(holo_regex *re, const char *pat, holo_error *err) {
  parser ps = {re, pat, 0, err};
  frag root = {0, 0, false};
  holo_status st = parse_alt(&ps, 0, &root);
  if (st != HOLO_OK) return st;
  if (pat[ps.i] == ')') return holo_err(err, HOLO_ERR_ARG, "regex: unmatched ')' at %zu", ps.i);
  uint64_t accept = 1ull << re->n;
  link_sets(re, root.last, accept);
  re->first = root.first | (root.nullable ? accept : 0);
  re->live = live_set(re);
  re->done = 0;
  re->cur = 0;
  return HOLO_OK;
}

holo_status holo_regex_compile(holo_regex *re, const char *pat, const uint8_t *token_bytes,
                               const uint8_t *token_valid, uint32_t vocab, int64_t eos, holo_error *err) {
  if (!re || !pat || !token_bytes || !vocab)
    return holo_err(err, HOLO_ERR_ARG, "regex: NULL pattern or vocabulary");
  holo_memset(re, 0, sizeof *re);
  re->token_bytes = token_bytes;
  re->token_valid = token_valid;
  re->vocab = vocab;
  re->eos = eos;
  return compile(re, pat, err);
}

holo_status holo_token_domain_check(const holo_token_domain *dom, holo_error *err) {
  if (!dom || !dom->vocab || !dom->off || !dom->bytes)
    return holo_err(err, HOLO_ERR_ARG, "token domain: NULL table or empty vocabulary");
  if (dom->off[0] != 0) return holo_err(err, HOLO_ERR_ARG, "token domain: offsets must start at 0");
  for (uint32_t t = 0; t < dom->vocab; t++)
    if (dom->off[t + 1] < dom->off[t])
      return holo_err(err, HOLO_ERR_ARG, "token domain: offsets descend at token %u", t);
  return HOLO_OK;
}

holo_status holo_regex_compile_domain(holo_regex *re, const char *pat, const holo_token_domain *dom,
                                      int64_t eos, holo_error *err) {
  if (!re || !pat) return holo_err(err, HOLO_ERR_ARG, "regex: NULL pattern");
  holo_status st = holo_token_domain_check(dom, err);
  if (st != HOLO_OK) return st;
  holo_memset(re, 0, sizeof *re);
  re->token_bytes = dom->bytes;
  re->token_off = dom->off;
  re->vocab = dom->vocab;
  re->eos = eos;
  return compile(re, pat, err);
}

static uint64_t start(const holo_regex *re) { return re->first; }

bool holo_regex_match(const holo_regex *re, const uint8_t *text, size_t len) {
  uint64_t s = start(re);
  for (size_t i = 0; i < len && s; i++)
    s = step(re, s, text[i]);
  return (s >> re->n) & 1;
}

holo_status holo_regex_mask(void *ctx, const uint32_t *gen, uint32_t n, uint8_t *allowed, uint32_t vocab) {
  holo_regex *re = ctx;
  if (!re || vocab != re->vocab) return HOLO_ERR_ARG;
  /* Incremental when the history grew by exactly the tokens seen; else rebuilt. */
  if (n < re->done) re->done = 0, re->cur = start(re);
  if (re->done == 0) re->cur = start(re);
  const uint8_t *b;
  uint32_t len;
  for (; re->done < n; re->done++) {
    uint32_t t = gen[re->done];
    if (t >= vocab || is_eos(re, t) || !token_span(re, t, &b, &len))
      re->cur = 0;
    else
      re->cur = step_token(re, re->cur, b, len);
  }
  for (uint32_t t = 0; t < vocab; t++) {
    if (is_eos(re, t))
      allowed[t] = (uint8_t)((re->cur >> re->n) & 1);
    else
      allowed[t] = token_span(re, t, &b, &len) && (step_token(re, re->cur, b, len) & re->live) != 0;
  }
  return HOLO_OK;
}
