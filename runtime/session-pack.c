/* Kernels' own layouts of constant operands (backend.h holo_pack_call,
 * docs/decisions.md 32): planned at load, made at the first execution that
 * runs the node -- when every operand's shape is known -- and pinned for the
 * session. The runtime only says which operands are constant; the kernel
 * decides whether and how to pack them.
 *
 * A packed form is a resident buffer like a pinned cone value, under the
 * same memory-budget rule (no single value over the bound). One that does
 * not fit is not made: packing is an optimization, the kernel runs on the
 * constant as it is (the same bytes), and the next execution asks again
 * (the budget may have been raised). Any other failure -- the kernel's, or
 * out of memory -- is the execution's error; nothing is left half-made. */
#include "hologram/fmt.h"
#include "session-impl.h"

#define NO_PACK 0xFFFFFFFFu

/* An archive constant, or a value of the constant-only cone: the same
 * buffer in every execution of the session. */
static bool is_constant(const holo_session *s, uint32_t v) {
  if (v == HOLO_ABSENT) return false;
  const holo_ar_value *val = &s->ar.values[v];
  return val->kind == HOLO_VK_CONST || (val->kind == HOLO_VK_NODE && s->in_cone[val->aux]);
}

holo_status holo__s_plan_packs(holo_session *s, holo_error *err) {
  const holo_archive *ar = &s->ar;
  uint32_t total = 0;
  s->pack_base = holo__s_zalloc(s, ar->n_nodes, sizeof *s->pack_base);
  s->pack_done = holo__s_zalloc(s, ar->n_nodes, 1);
  if (!s->pack_base || !s->pack_done) return holo_err(err, HOLO_ERR_MEMORY, "out of memory: pack tables");
  for (uint32_t i = 0; i < ar->n_nodes; i++) {
    const holo_ar_node *n = &ar->nodes[i];
    bool any = false;
    /* a cone node runs once at load: nothing to gain from a layout */
    if (s->kernels[i] && s->kernels[i]->pack && !s->in_cone[i])
      for (uint32_t k = 0; k < n->n_in && !any; k++)
        any = is_constant(s, n->in[k]);
    s->pack_base[i] = any ? total : NO_PACK;
    if (any) total += n->n_in;
  }
  s->n_pack_slots = total;
  if (!total) return HOLO_OK;
  s->packed = holo__s_zalloc(s, total, sizeof *s->packed);
  s->pack_bufs = holo__s_zalloc(s, total, sizeof *s->pack_bufs);
  if (!s->packed || !s->pack_bufs) return holo_err(err, HOLO_ERR_MEMORY, "out of memory: pack tables");
  return HOLO_OK;
}

static void drop_packs(holo_session *s, uint32_t base, uint32_t n) {
  for (uint32_t k = 0; k < n; k++) {
    if (s->pack_bufs[base + k]) holo_arena_unref(&s->arena, s->pack_bufs[base + k]);
    holo__s_weights_forget_pack(s, base + k);
    s->pack_bufs[base + k] = 0;
    s->packed[base + k] = 0;
  }
}

/* Asks node i's kernel for its layout of input k and makes it; *later: it
 * did not fit the memory budget (not made, to be asked again). */
static holo_status pack_input(holo_session *s, uint32_t i, uint32_t k, bool *later, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  const holo_kernel *kern = s->kernels[i];
  char msg[HOLO_MSG_CAP], prefix[160];
  msg[0] = 0;
  holo_kernel_call call = {n->attrs, n->n_attrs,          s->tin,      n->n_in, 0,          0, 0, 0,
                           -1,       s->be->parallel_for, s->be->pctx, msg,     sizeof msg, 0, 0};
  holo_pack_call pc = {&call, k, 0, 0};
  holo_status st = kern->pack(&pc);
  if (st)
    return holo_err(err, st, NODE_FMT ": packing input %u: %s", NODE_ARGS(i, n), k,
                    msg[0] ? msg : "refused by the kernel");
  if (!pc.bytes) return HOLO_OK;
  size_t want = pc.bytes;
  holo_buf *b;
  /* holo_arena_alloc's bound for a pinned value; a sourced session's
   * weight budget (evicting unused constants and packs to make room) */
  if ((s->arena.budget && want > s->arena.budget) || !holo__s_weights_room(s, want)) {
    *later = true;
    return HOLO_OK;
  }
  if ((st = holo_arena_alloc(&s->arena, want, true, &b, err))) {
    holo_fmt(prefix, sizeof prefix, NODE_FMT ": packing input %u (%zu bytes): ", NODE_ARGS(i, n), k, want);
    return holo_err_prefix(err, st, prefix);
  }
  pc.dst = b->data;
  st = kern->pack(&pc);
  if (st || pc.bytes != want) {
    holo_arena_unref(&s->arena, b);
    return holo_err(err, st ? st : HOLO_ERR_KERNEL, NODE_FMT ": packing input %u: %s", NODE_ARGS(i, n), k,
                    st ? (msg[0] ? msg : "kernel failed") : "the kernel changed the size it asked for");
  }
  s->pack_bufs[s->pack_base[i] + k] = b;
  s->packed[s->pack_base[i] + k] = b->data;
  holo__s_weights_add_pack(s, s->pack_base[i] + k, want);
  return HOLO_OK;
}

holo_status holo__s_packed(holo_session *s, uint32_t i, const void *const **out, holo_error *err) {
  uint32_t base = s->pack_base[i];
  const holo_ar_node *n = &s->ar.nodes[i];
  *out = 0;
  if (base == NO_PACK) return HOLO_OK;
  if (!s->pack_done[i]) {
    bool later = false;
    for (uint32_t k = 0; k < n->n_in; k++) {
      if (!is_constant(s, n->in[k]) || s->pack_bufs[base + k]) continue;
      holo_status st = pack_input(s, i, k, &later, err);
      if (st) { /* nothing half-made: the next execution asks again */
        drop_packs(s, base, n->n_in);
        return st;
      }
    }
    s->pack_done[i] = !later;
  }
  for (uint32_t k = 0; k < n->n_in; k++)
    if (s->packed[base + k]) {
      *out = &s->packed[base];
      break;
    }
  return HOLO_OK;
}

void holo__s_free_packs(holo_session *s) {
  if (s->pack_bufs && s->packed) drop_packs(s, 0, s->n_pack_slots);
  holo__s_free(s, s->pack_bufs);
  holo__s_free(s, s->packed);
  holo__s_free(s, s->pack_base);
  holo__s_free(s, s->pack_done);
}
