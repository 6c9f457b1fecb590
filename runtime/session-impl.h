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

/* A resident constant or packed form under the weight budget. */
typedef struct holo_witem {
  struct holo_witem *prev, *next; /* LRU: head = least recently used */
  uint64_t bytes;
  uint32_t busy; /* nodes running with it (acquired, not yet released) */
  bool resident;
} holo_witem;

typedef struct holo_weights {
  uint64_t budget, bytes, peak; /* budget 0: never evict */
  holo_witem *items;            /* n_consts constants, then one per pack slot */
  holo_entry *entries;          /* per constant: its entry while resident */
  uint32_t *cons_value;         /* per constant: its value */
  uint32_t *pack_node;          /* per pack slot: its node */
  holo_witem *head, *tail;
  uint32_t n_consts;
  uint64_t fetches, evictions, fetched, stall_ns;
} holo_weights;

struct holo_session {
  holo_allocator a;
  const holo_backend *be;
  holo_archive ar;
  holo_digest archive_digest;
  holo_sha256 memo_prefix; /* the memo key's state after its fixed fields */
  char archive_label[HOLO_LABEL_LEN + 1];
  uint32_t flags;
  holo_warm_store *store;
  holo_arena arena;
  holo_memo memo;

  const holo_kernel **kernels; /* per node */
  uint32_t *key_at;            /* per node: its outputs' first entry in keys */
  uint32_t (*keys)[8];         /* per node output: its label's BLAKE3 key (§5), LE words */
  uint8_t *in_cone;            /* per node: all inputs constant (transitively) */
  uint8_t *control;            /* per node: HOLO_CTL_* (a construct of nested graphs), 0 = a kernel */
  uint8_t *anon;               /* per node: outputs kept outside the content table (session-anon.c); may be NULL */
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

  /* constants read by range under a budget (session-weights.c); src.read
   * NULL: every constant pinned in place for the session */
  holo_source src;
  uint8_t *head; /* a sourced load's copy of the archive before DATA */
  holo_weights w;

  /* tiered-exec (session-tier.c): spill budget, bytes spilled so far, and a
   * bit filter of the labels spilled (NULL: off) */
  struct {
    uint64_t budget, spilled;
    uint8_t *filter;
  } tier;

  /* the content labels of the i64 iteration numbers 0..63 a Loop binds,
   * each hashed on first use (bit v of iter_known): a trip cost one
   * SHA-256 of its scalar, 23 % of a 16-trip loop's run (session-loop.c) */
  uint64_t iter_known;
  holo_digest iter_digest[64];
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

/* session-keys.c: the per-node, per-output keys of format §5 (at load). */
void holo__s_node_keys(holo_session *s, uint32_t i, const holo_kernel *k);
void holo__s_memo_prefix(holo_session *s); /* after the archive label */
/* session-labels.c: the κ-labels of format §5 and the memo key. */
void holo__s_computed_digests(holo_session *s, uint32_t i, holo_digest *out); /* n_out of them */
void holo__s_memo_key(holo_session *s, holo_digest *key);
void holo__s_input_digest(holo_session *s, uint32_t dtype, const int64_t *shape, uint32_t rank,
                          const void *bytes, size_t len, holo_digest *out);

/* session-tier.c: values read back from the warm store by label, if they
 * were spilled; true when all n are resident now. */
bool holo__s_tier_promote(holo_session *s, const holo_digest *d, uint32_t n);
void holo__s_tier_free(holo_session *s);

/* session-anon.c: which nodes' values are never looked up by label (at load). */
holo_status holo__s_plan_anon(holo_session *s, holo_error *err);

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

/* session-load.c: the parts of a load shared with session-source.c. */
holo_status holo__s_new(const holo_backend *backend, const holo_options *options, holo_session **out,
                        holo_error *err);
/* Everything after the archive is parsed and labelled: arena, memo, tables, plan, cone. */
holo_status holo__s_load_parsed(holo_session *s, const holo_options *options, holo_error *err);
void holo__s_archive_label_begin(holo_sha256 *c);
void holo__s_archive_label_end(holo_session *s, holo_sha256 *c, uint64_t len);

/* session-weights.c: constants read by range under the weight budget.
 * acquire makes node i's constant inputs (and its packed forms already
 * made) resident and keeps them so until release; a constant larger than
 * the budget, or a node whose constants together exceed it, is
 * HOLO_ERR_BUDGET; a read failure HOLO_ERR_IO; bytes that do not match the
 * label HOLO_ERR_FORMAT. All are no-ops for a session without a source. */
holo_status holo__s_weights_init(holo_session *s, holo_error *err);
holo_status holo__s_weights_acquire(holo_session *s, uint32_t i, holo_error *err);
void holo__s_weights_release(holo_session *s, uint32_t i);
/* Makes room for a packed form of `bytes` (false: it does not fit now). */
bool holo__s_weights_room(holo_session *s, uint64_t bytes);
/* Registers pack slot `slot` (just made, `bytes`) as resident and busy. */
void holo__s_weights_add_pack(holo_session *s, uint32_t slot, uint64_t bytes);
/* Pack slot `slot` was dropped (a failed packing, the session's end). */
void holo__s_weights_forget_pack(holo_session *s, uint32_t slot);
void holo__s_weights_free(holo_session *s);
/* Reads and verifies every constant (holo_session_verify_constants). */
holo_status holo__s_weights_verify(holo_session *s, holo_error *err);
/* The label of value v bound in this execution; a constant's from its
 * archive record (a sourced session reads it only when a node computes). */
static inline const holo_digest *holo__s_label_of(const holo_session *s, uint32_t v) {
  const holo_ar_value *val = &s->ar.values[v];
  return val->kind == HOLO_VK_CONST ? &s->ar.consts[val->aux].digest : &s->slot[v]->d;
}
/* Makes value v resident if it is a constant (a graph output that is an
 * archive constant), held until the walk ends; a no-op otherwise. */
holo_status holo__s_weights_need(holo_session *s, uint32_t v, holo_error *err);
/* Whether slot holds entries that need a live count (transient or sourced). */
static inline bool holo__s_counted(const holo_entry *e) { return !e->pinned || e->sourced; }

/* session-inputs.c: validating and labelling what an execution is given. */
holo_status holo__s_bind_symbols(holo_session *s, const holo_ar_value *val, const int64_t *shape,
                                 const char *what, uint32_t idx, holo_error *err);
holo_status holo__s_bind_input(holo_session *s, uint32_t i, const holo_input *in, const int64_t *shape,
                               holo_error *err);
/* Leaves s->out_entries bound to the results, resident until the next call. */
holo_status holo__s_execute(holo_session *s, const holo_input *in, uint32_t n, holo_error *err);

#endif
