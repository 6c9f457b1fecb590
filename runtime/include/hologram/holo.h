/* hologram-exec public C API.
 *
 * A session loads a .holo archive and executes it synchronously. Every
 * value carries a κ-label; results already resident are looked up, not
 * recomputed. Every failure is a holo_status plus a message in holo_error;
 * a failed call leaves the session usable. */
#ifndef HOLOGRAM_HOLO_H
#define HOLOGRAM_HOLO_H

#include "hologram/backend.h"
#include "hologram/error.h"
#include "hologram/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Memory for the session's own tables and for value buffers. alloc returns
 * `align`-aligned memory or NULL. Native builds may pass NULL in options to
 * get malloc-based defaults (std builds only). */
typedef struct holo_allocator {
  void *ctx;
  void *(*alloc)(void *ctx, size_t size, size_t align);
  void (*free)(void *ctx, void *ptr);
} holo_allocator;

/* A WarmStore: a label-keyed byte store that outlives the session (files,
 * IndexedDB, a Map). get returns HOLO_OK and fills *bytes (owned by the
 * store, valid until the next call on it) or HOLO_ERR_STORE when absent.
 * Labels handed over are 71-byte `sha256:<hex>` strings, NUL-terminated. */
typedef struct holo_warm_store {
  void *ctx;
  holo_status (*get)(void *ctx, const char *label, const uint8_t **bytes, size_t *len);
  holo_status (*put)(void *ctx, const char *label, const uint8_t *bytes, size_t len);
} holo_warm_store;

enum {
  /* Trust warm-store bytes without re-hashing them (default: verify). */
  HOLO_OPT_TRUST_STORE = 1u << 0,
  /* Re-hash every constant at load and compare with its stored digest. */
  HOLO_OPT_VERIFY_CONSTANTS = 1u << 1,
  /* Do not compute the constant-only cone at load (computed on first use). */
  HOLO_OPT_NO_WARM_CONE = 1u << 2,
  /* Persist each execution's memo record (memo key -> output labels) and
   * outputs in the warm store, and answer an execution whose record is
   * there from the store (docs/warm-store.md "Memo records"). */
  HOLO_OPT_STORE_MEMO = 1u << 3
};

typedef struct holo_options {
  const holo_allocator *allocator; /* NULL: default (std builds) */
  uint64_t memory_budget;          /* bound on transient bytes; 0 = unbounded */
  holo_warm_store *warm_store;     /* optional */
  uint32_t flags;                  /* HOLO_OPT_* */
} holo_options;

/* An archive read by byte range (a file descriptor and pread, a host
 * buffer): what holo_session_load_source reads constants from. read copies
 * bytes [offset, offset + len) to dst and returns HOLO_OK, or any other
 * status when it cannot (the execution then fails with HOLO_ERR_IO). The
 * bytes read are verified, never trusted: a changed or corrupt source is an
 * error value, not a wrong answer. clock_ns, optional, is a monotonic clock
 * for the weight_stall_ns counter. */
typedef struct holo_source {
  void *ctx;
  uint64_t size;
  holo_status (*read)(void *ctx, uint64_t offset, void *dst, size_t len);
  uint64_t (*clock_ns)(void *ctx);
} holo_source;

/* A byte range (for the parts of a hash preimage). */
typedef struct holo_span {
  const void *data;
  size_t len;
} holo_span;

/* A host SHA-256, for hosts with a faster one than the runtime's portable
 * code (node:crypto's is several times faster than ours compiled to wasm).
 * sha256 writes the SHA-256 of parts[0] || ... || parts[n-1] to out and
 * returns HOLO_OK; any other status makes the runtime hash with its own
 * SHA-256 instead (out is then overwritten). It only changes who computes
 * the hash: labels are byte-identical with or without it. The runtime calls
 * it for execute-time input content labels (holo_execute*, refinement and
 * generation inputs) of at least min_bytes tensor bytes; smaller inputs are
 * hashed by the runtime, where the host call would cost more than it saves. */
typedef struct holo_hasher {
  void *ctx;
  holo_status (*sha256)(void *ctx, const holo_span *parts, uint32_t n, uint8_t out[32]);
  size_t min_bytes;
} holo_hasher;

/* The min_bytes the wasm module uses with node:crypto (docs/decisions.md). */
#ifndef HOLO_HASHER_MIN_BYTES
#define HOLO_HASHER_MIN_BYTES ((size_t)2 << 10)
#endif

/* Values no execution needs any more stay resident as a cache (for elision
 * and memo hits) up to this many bytes, least recently used evicted first;
 * change it with holo_session_set_retain_bytes (UINT64_MAX: keep all the
 * budget allows). */
#define HOLO_DEFAULT_RETAIN_BYTES (64ull << 20)

typedef struct holo_session holo_session;

/* A borrowed input: bytes plus, where the port has symbolic dims, a shape.
 * shape == NULL means the port's declared (fully concrete) shape. */
typedef struct holo_input {
  const void *bytes;
  size_t len;
  const int64_t *shape;
  uint32_t rank;
} holo_input;

/* An owned output; release with holo_output_free. */
typedef struct holo_output {
  void *bytes;
  size_t len;
  uint32_t dtype;
  uint32_t rank;
  int64_t shape[HOLO_MAX_RANK];
} holo_output;

/* A zero-copy view of a resident value: valid until the next execute on the
 * session or its disposal. */
typedef struct holo_view {
  char label[HOLO_LABEL_LEN + 1];
  const void *data;
  size_t len;
  uint32_t dtype;
  uint32_t rank;
  int64_t shape[HOLO_MAX_RANK];
} holo_view;

typedef struct holo_port_info {
  const char *name; /* not NUL-terminated: name_len bytes */
  uint32_t name_len;
  uint32_t dtype;
  uint32_t rank;                /* 255: unknown */
  int64_t shape[HOLO_MAX_RANK]; /* < 0: symbolic, see symbol */
  const char *symbol[HOLO_MAX_RANK];
  uint32_t symbol_len[HOLO_MAX_RANK];
} holo_port_info;

typedef struct holo_counters {
  uint64_t executions;
  uint64_t dispatches; /* kernel run() calls */
  uint64_t elided;     /* node executions skipped: label already resident */
  uint64_t memo_hits;  /* whole executions answered from the graph memo */
  uint64_t store_hits, store_misses, store_corrupt, store_puts;
  uint64_t bytes_hashed; /* bytes of tensor content hashed (inputs, verification) */
  uint64_t evictions;
  uint64_t peak_live_bytes; /* high-water mark of transient bytes that had to be resident */
  uint64_t peak_resident_bytes;
  /* Constants read from the source (weight_budget, holo_session_load_source):
   * reads, evictions (packed forms included), bytes read, the high-water mark
   * of constant + packed bytes resident, and the time spent reading and
   * verifying (needs holo_source.clock_ns). */
  uint64_t weight_fetches, weight_evictions, weight_bytes_fetched, weight_peak_bytes, weight_stall_ns;
  /* tiered-exec (holo_session_set_spill_budget): values written to the warm
   * store as the pool evicted them, and values read back from it by label. */
  uint64_t spills, promotions;
} holo_counters;

/* Loads an archive. The bytes are borrowed: they must stay valid and
 * unchanged until holo_session_free (constants are used in place when the
 * archive sits 64-byte aligned). The backend is borrowed too. */
holo_status holo_session_load(const uint8_t *archive, size_t len, const holo_backend *backend,
                              const holo_options *options, holo_session **out, holo_error *err);
/* Loads an archive read through src (copied; its ctx borrowed until
 * holo_session_free): only the bytes before its DATA section are held.
 * Constants are read by range as a node that computes needs them, each
 * verified against its label, and kept, with the kernels' packed forms of
 * them, under weight_budget bytes: least recently used first out, a packed
 * form made again from its constant when its node next runs (0: nothing
 * evicted). A constant larger than the budget, or a node whose constants
 * together exceed it, fails that execution with HOLO_ERR_BUDGET; the
 * session stays usable (docs/decisions.md 60). The archive label still
 * covers the whole file (read once at load, streamed). Outputs and labels
 * are those of holo_session_load. */
holo_status holo_session_load_source(const holo_source *src, const holo_backend *backend,
                                     const holo_options *options, uint64_t weight_budget, holo_session **out,
                                     holo_error *err);
/* Changes a sourced session's weight budget (0: never evict); over-budget
 * constants are evicted lazily, at the next read. HOLO_ERR_ARG for a
 * session loaded from bytes (its constants are pinned in place). */
holo_status holo_session_set_weight_budget(holo_session *s, uint64_t bytes);
/* A source over archive bytes in memory (borrowed): reads copy from them. */
void holo_source_memory(holo_source *src, const uint8_t *bytes, size_t len);
void holo_session_free(holo_session *s);

/* Executes with n inputs in port order; writes n_out owned outputs. */
holo_status holo_execute(holo_session *s, const holo_input *inputs, uint32_t n, holo_output *outputs,
                         uint32_t n_out, holo_error *err);
/* Same, but returns labels and views into the arena: no copy out. */
holo_status holo_execute_addressed(holo_session *s, const holo_input *inputs, uint32_t n, holo_view *views,
                                   uint32_t n_out, holo_error *err);
void holo_output_free(holo_session *s, holo_output *o);

uint32_t holo_session_input_count(const holo_session *s);
uint32_t holo_session_output_count(const holo_session *s);
uint32_t holo_session_kernel_count(const holo_session *s);
uint64_t holo_session_resident_bytes(const holo_session *s);
uint32_t holo_session_resident_count(const holo_session *s);
uint32_t holo_session_content_store_len(const holo_session *s);
holo_status holo_session_input_info(const holo_session *s, uint32_t i, holo_port_info *info);
holo_status holo_session_output_info(const holo_session *s, uint32_t i, holo_port_info *info);
void holo_session_counters(const holo_session *s, holo_counters *c);
/* The archive's label (71 bytes + NUL). */
const char *holo_session_archive_label(const holo_session *s);
const char *holo_session_backend_identity(const holo_session *s);
/* Table sizes of the loaded archive (diagnostics: `holo info`). */
typedef struct holo_archive_info {
  uint32_t values, constants, nodes, metadata;
} holo_archive_info;
holo_status holo_session_archive_info(const holo_session *s, holo_archive_info *info);
/* Metadata entry i (the archive's META section, in archive order): key and
 * value bytes, borrowed from the archive, not NUL-terminated. */
holo_status holo_session_metadata(const holo_session *s, uint32_t i, holo_span *key, holo_span *value);
/* Node i's op type (archive order), borrowed from the archive, not
 * NUL-terminated (diagnostics: `holo info`'s op counts). */
holo_status holo_session_node_op(const holo_session *s, uint32_t i, holo_span *op);
/* Re-hashes every constant; HOLO_ERR_FORMAT naming the first mismatch. */
holo_status holo_session_verify_constants(holo_session *s, holo_error *err);

/* The memo key label (71 bytes + NUL) an execution with these inputs would
 * look up: a host with an asynchronous store fetches that record and the
 * outputs it names before a synchronous holo_execute. Validates the inputs
 * as holo_execute does. */
holo_status holo_session_memo_key(holo_session *s, const holo_input *inputs, uint32_t n,
                                  char label[HOLO_LABEL_LEN + 1], holo_error *err);

/* Changes the transient bound (0 = unbounded); over-budget entries are
 * evicted lazily, at the next allocation. */
holo_status holo_session_set_memory_budget(holo_session *s, uint64_t bytes);
/* Bounds the kernel work of each later execution (0 = unbounded, the
 * default), in elementary operations (multiply-adds, compares, element
 * moves; each kernel's estimate, backend.h holo_kernel_call.work). A node
 * whose work would take the execution past the bound is refused with
 * HOLO_ERR_BUDGET before it runs. A host that runs untrusted archives sets
 * it: a few bytes of attributes can ask for hours of compute within any
 * memory budget. The constant cone, run by holo_session_load, is not
 * bounded by it; such a host loads with HOLO_OPT_NO_WARM_CONE so that the
 * cone runs, bounded, in the first execution (docs/bad-inputs.md). */
/* tiered-exec: values the transient pool evicts that are worth keeping (an
 * execution's outputs, generator and refinement state; not retired
 * intermediates) are written to the warm store, up to `bytes` over the
 * session's life, and read back by label, verified, when a later execution
 * needs them (a memo hit whose outputs left memory answers with no
 * dispatch). 0 turns it off (the default). HOLO_ERR_ARG without a warm
 * store that can get and put (docs/warm-store.md "Tiered execution"). */
holo_status holo_session_set_spill_budget(holo_session *s, uint64_t bytes);
holo_status holo_session_set_work_budget(holo_session *s, uint64_t ops);
/* The work charged by the last walk (execution or load), in the budget's
 * units; a memo hit charges 0. For hosts choosing a budget. */
uint64_t holo_session_last_work(const holo_session *s);
holo_status holo_session_set_retain_bytes(holo_session *s, uint64_t bytes);
/* Replaces the graph memo by one of `records` records (rounded down to a
 * power of two; 0: the default, 16384 for up to two outputs), dropping the
 * records it held. A failure (MEMORY) leaves the session without a memo:
 * executions still compute, and are never memo hits. */
holo_status holo_session_set_memo_records(holo_session *s, uint32_t records, holo_error *err);
/* The memo's record count (0: no memo). */
uint32_t holo_session_memo_records(const holo_session *s);
/* Installs a host SHA-256 (copied; its ctx is borrowed until the session is
 * freed or the hasher replaced); NULL or a NULL sha256 removes it. */
holo_status holo_session_set_hasher(holo_session *s, const holo_hasher *h);

/* MemWarmStore: an in-memory store over an allocator, bounded like every
 * store (issue 22): at most max_bytes of record bytes and max_entries
 * records; a put past either evicts the least recently used (get refreshes
 * recency); a record larger than max_bytes is not kept. Defaults
 * HOLO_MEM_STORE_MAX_BYTES / HOLO_MEM_STORE_MAX_ENTRIES (the JS memory
 * store's). get's bytes are valid until the store's next put or release. */
#define HOLO_MEM_STORE_MAX_BYTES (256ull << 20)
#define HOLO_MEM_STORE_MAX_ENTRIES 100000u
typedef struct holo_mem_store {
  holo_warm_store store; /* pass &ms.store to holo_options */
  holo_allocator a;
  struct holo_mem_record *head, *tail; /* most / least recently used */
  uint32_t count;
  uint64_t bytes; /* record bytes held */
  uint64_t max_bytes;
  uint32_t max_entries;
  uint64_t evicted; /* records evicted (or refused: over max_bytes) */
} holo_mem_store;
void holo_mem_store_init(holo_mem_store *ms, const holo_allocator *a);
/* New caps (0: the default); evicts down to them at once. */
void holo_mem_store_bound(holo_mem_store *ms, uint64_t max_bytes, uint32_t max_entries);
void holo_mem_store_release(holo_mem_store *ms);

/* Human-readable name of a status code. */
const char *holo_status_name(holo_status st);

#ifdef __cplusplus
}
#endif
#endif
