/* The state of a holo_session, shared by the files that implement it
 * (runtime/session-*.c: one job each) and seen by nothing else: refinement
 * goes through session-internal.h, hosts through hologram/holo.h. */
#ifndef HOLO_SESSION_IMPL_H
#define HOLO_SESSION_IMPL_H

#include "archive.h"
#include "arena.h"
#include "hologram/mem.h"
#include "memo.h"
#include "session-internal.h"
#include "warm.h"

struct holo_session {
  holo_allocator a;
  const holo_backend *be;
  holo_archive ar;
  holo_digest archive_digest;
  char archive_label[HOLO_LABEL_LEN + 1];
  uint32_t flags;
  holo_warm_store *store;
  holo_arena arena;
  holo_memo memo;

  const holo_kernel **kernels; /* per node */
  holo_sha256 *prefix;         /* per node: hash state after the label prefix */
  uint8_t *in_cone;            /* per node: all inputs constant (transitively) */
  uint8_t *control;            /* per node: HOLO_CTL_* (a construct of nested graphs), 0 = a kernel */
  uint32_t *last_use;          /* per value: last node reading it; n_nodes = kept to the end */
  holo_entry **slot;           /* per value: the entry bound in this execution */
  uint8_t *held;               /* per value: slot holds a live reference */
  holo_entry **out_entries;    /* per output port: the result of the last execution */
  int64_t *sym;                /* per symbol: binding of this execution, -1 unbound */
  holo_tensor *tin, *tout;     /* kernel call scratch, 64 each */
  holo_digest *in_digests;     /* per input port */
  void *scratch;
  size_t scratch_cap;
  holo_counters c;
  holo_hasher hasher;   /* host SHA-256 for large inputs; sha256 NULL: none */
  uint64_t work_budget; /* per walk; 0 = unbounded */
  uint64_t work;        /* charged by the current (or last) walk */
  bool loading;

  /* kernels' layouts of constant operands (session-pack.c) */
  uint32_t *pack_base;  /* per node: its first slot in packed/pack_bufs, or none */
  uint8_t *pack_done;   /* per node: asked (and made) already */
  const void **packed;  /* per slot (a node's inputs): the packed form or NULL */
  holo_buf **pack_bufs; /* per slot: its buffer, pinned, counted as resident */
  uint32_t n_pack_slots;
};

#define NODE_FMT "node %u (%.*s %.*s)"
#define NODE_ARGS(i, n) (i), (int)(n)->op.len, (n)->op.p, (int)(n)->name.len, (n)->name.p

static inline void *holo__s_zalloc(holo_session *s, size_t n, size_t size) {
  if (n == 0) n = 1;
  if (n > SIZE_MAX / size) return 0;
  void *p = s->a.alloc(s->a.ctx, n * size, 16);
  if (p) holo_memset(p, 0, n * size);
  return p;
}

static inline void holo__s_free(holo_session *s, void *p) {
  if (p) s->a.free(s->a.ctx, p);
}

/* session-labels.c: the κ-labels of format §5 and the memo key. */
void holo__s_node_prefix(holo_session *s, uint32_t i, const holo_kernel *k);
void holo__s_computed_digest(holo_session *s, uint32_t i, uint32_t k, holo_digest *out);
void holo__s_memo_key(holo_session *s, holo_digest *key);
void holo__s_input_digest(holo_session *s, uint32_t dtype, const int64_t *shape, uint32_t rank,
                          const void *bytes, size_t len, holo_digest *out);

/* session-walk.c: the graph walk, node by node. */
void holo__s_bind(holo_session *s, uint32_t v, holo_entry *e);
void holo__s_release_all(holo_session *s);
holo_status holo__s_run_node(holo_session *s, uint32_t i, holo_error *err);
/* The part of an execution after the input labels are known: the memo,
 * else a graph walk. in may be NULL when every input is already resident. */
holo_status holo__s_walk(holo_session *s, const holo_input *in, int64_t (*shapes)[HOLO_MAX_RANK],
                         holo_error *err);

/* session-walk.c: releasing a value's live reference; the retirement after node i. */
void holo__s_unhold(holo_session *s, uint32_t v);
void holo__s_retire(holo_session *s, uint32_t i);

/* session-control.c, session-loop.c: control flow (format §4a). */
enum { HOLO_CTL_NONE = 0, HOLO_CTL_IF = 1, HOLO_CTL_LOOP = 2 };
holo_status holo__s_plan_control(holo_session *s, uint32_t i, holo_error *err);
uint32_t holo__s_reader_in(const holo_session *s, uint32_t j, uint32_t want);
void holo__s_plan_graph_uses(holo_session *s);
holo_status holo__s_run_control(holo_session *s, uint32_t i, holo_error *err);
holo_status holo__s_run_loop(holo_session *s, uint32_t i, holo_error *err);
/* Runs the nodes of nested graph g in order; holo__s_release_graph then
 * drops what g bound (its inputs, its nodes' outputs). */
holo_status holo__s_run_graph(holo_session *s, uint32_t g, holo_error *err);
void holo__s_release_graph(holo_session *s, uint32_t g);
/* The one element of e (dtype `dtype`, little-endian, zero-extended) as an int64. */
holo_status holo__s_scalar_of(holo_session *s, uint32_t i, holo_entry *e, uint32_t dtype, const char *what,
                              int64_t *out, holo_error *err);

/* session-pack.c: kernels' layouts of constant operands. */
holo_status holo__s_plan_packs(holo_session *s, holo_error *err);
/* *out: the packed forms of node i's inputs (made now if this is its first
 * run) for holo_kernel_call.packed, or NULL. A failure leaves nothing
 * half-made: the next execution asks the kernel again. */
holo_status holo__s_packed(holo_session *s, uint32_t i, const void *const **out, holo_error *err);
void holo__s_free_packs(holo_session *s);

/* session-inputs.c: validating and labelling what an execution is given. */
holo_status holo__s_bind_symbols(holo_session *s, const holo_ar_value *val, const int64_t *shape,
                                 const char *what, uint32_t idx, holo_error *err);
holo_status holo__s_bind_input(holo_session *s, uint32_t i, const holo_input *in, const int64_t *shape,
                               holo_error *err);
/* Leaves s->out_entries bound to the results, resident until the next call. */
holo_status holo__s_execute(holo_session *s, const holo_input *in, uint32_t n, holo_error *err);

#endif
