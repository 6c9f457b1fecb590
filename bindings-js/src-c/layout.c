/* The layout of every struct that crosses the JS/wasm boundary, as clang
 * lays it out for wasm32. The JS shim reads and writes fields only through
 * this table: tools/gen-layout.mjs writes it into bindings-js/dist/layout.js
 * at build time (from this file compiled alone), and the shim checks at
 * instantiation that the core module it runs carries the same table, so a
 * struct changed on one side only is an ABI error, never a misread field. */
#include "boundary.h"
#include "hologram/generate.h"
#include "hologram/holo.h"
#include "hologram/refine.h"
#include "module.h"

/* One row: a struct (field ""), a field of one, or a constant (type ""). */
typedef struct layout_row {
  const char *type;
  const char *field;
  uint32_t a;    /* struct: sizeof; field: offset; constant: value */
  uint32_t b;    /* struct: alignof; field: element size */
  uint32_t c;    /* field: element count (1: not an array) */
  uint32_t kind; /* field element: 'u' unsigned, 'i' signed, 'f' float, 'p' pointer, 'c' char */
} layout_row;
/* JS reads a row as six little-endian u32 words (src/layout-rows.js). */
_Static_assert(sizeof(layout_row) == 24 && sizeof(void *) == 4, "layout rows are six 32-bit words");

#define KIND(x)                                                                                              \
  _Generic((x), char: 'c', signed char: 'i', unsigned char: 'u', short: 'i', unsigned short: 'u', int: 'i', \
      unsigned: 'u', long: 'i', unsigned long: 'u', long long: 'i', unsigned long long: 'u', float: 'f',     \
      double: 'f', default: 'p')
#define M(S, f) (((S *)0)->f)
#define STRUCT(S) {#S, "", sizeof(S), _Alignof(S), 0, 0}
#define FIELD(S, f) {#S, #f, __builtin_offsetof(S, f), sizeof(M(S, f)), 1, KIND(M(S, f))}
#define ARRAY(S, f)                                                                                  \
  {#S, #f, __builtin_offsetof(S, f), sizeof(M(S, f)[0]), sizeof(M(S, f)) / sizeof(M(S, f)[0]), \
   KIND(M(S, f)[0])}
/* An array of fixed-size strings (char f[N][L]): elements of L chars. */
#define STRINGS(S, f)                                                                                \
  {#S, #f, __builtin_offsetof(S, f), sizeof(M(S, f)[0]), sizeof(M(S, f)) / sizeof(M(S, f)[0]), \
   KIND(M(S, f)[0][0])}
#define CONST(n) {"", #n, n, 0, 0, 0}

static const layout_row ROWS[] = {
    CONST(HOLO_MAX_RANK),
    CONST(HOLO_LABEL_LEN),
    CONST(HOLO_MSG_CAP),
    CONST(HOLO_MAX_STATE),
    /* the values JS passes or reads in the structs and arguments below */
    CONST(HOLO_OK),
    CONST(HOLO_ERR_ARG),
    CONST(HOLO_ERR_FORMAT),
    CONST(HOLO_ERR_UNSUPPORTED),
    CONST(HOLO_ERR_INPUT),
    CONST(HOLO_ERR_MEMORY),
    CONST(HOLO_ERR_BUDGET),
    CONST(HOLO_ERR_STORE),
    CONST(HOLO_ERR_KERNEL),
    CONST(HOLO_ERR_STATE),
    CONST(HOLO_ERR_LIMIT),
    CONST(HOLO_DT_F32),
    CONST(HOLO_DT_U8),
    CONST(HOLO_DT_I8),
    CONST(HOLO_DT_U16),
    CONST(HOLO_DT_I16),
    CONST(HOLO_DT_I32),
    CONST(HOLO_DT_I64),
    CONST(HOLO_DT_BOOL),
    CONST(HOLO_DT_F16),
    CONST(HOLO_DT_BF16),
    CONST(HOLO_DT_F64),
    CONST(HOLO_DT_U32),
    CONST(HOLO_DT_U64),
    CONST(HOLO_OPT_TRUST_STORE),
    CONST(HOLO_OPT_VERIFY_CONSTANTS),
    CONST(HOLO_OPT_NO_WARM_CONE),
    CONST(HOLO_OPT_STORE_MEMO),
    CONST(WASM_HOST_STORE),
    CONST(WASM_HOST_SHA256),
    CONST(HOLO_VALIDATE_STABLE_LABELS),
    CONST(HOLO_VALIDATE_STABLE_BYTES),
    CONST(HOLO_REPAIR_NONE),
    CONST(HOLO_REPAIR_RETRY_PASS),
    CONST(HOLO_REFINE_CONVERGED),
    CONST(HOLO_REFINE_BUDGET_EXHAUSTED),
    CONST(HOLO_REFINE_REPAIRED),
    CONST(HOLO_REFINE_FAILED),
    CONST(HOLO_SAMPLER_GREEDY),
    CONST(HOLO_SAMPLER_DEFAULT),
    CONST(HOLO_SAMPLER_MIROSTAT_V2),

    STRUCT(holo_error),
    FIELD(holo_error, status),
    ARRAY(holo_error, message),

    STRUCT(holo_span),
    FIELD(holo_span, data),
    FIELD(holo_span, len),

    STRUCT(holo_input),
    FIELD(holo_input, bytes),
    FIELD(holo_input, len),
    FIELD(holo_input, shape),
    FIELD(holo_input, rank),

    STRUCT(holo_view),
    ARRAY(holo_view, label),
    FIELD(holo_view, data),
    FIELD(holo_view, len),
    FIELD(holo_view, dtype),
    FIELD(holo_view, rank),
    ARRAY(holo_view, shape),

    STRUCT(holo_port_info),
    FIELD(holo_port_info, name),
    FIELD(holo_port_info, name_len),
    FIELD(holo_port_info, dtype),
    FIELD(holo_port_info, rank),
    ARRAY(holo_port_info, shape),
    ARRAY(holo_port_info, symbol),
    ARRAY(holo_port_info, symbol_len),

    STRUCT(holo_counters),
    FIELD(holo_counters, executions),
    FIELD(holo_counters, dispatches),
    FIELD(holo_counters, elided),
    FIELD(holo_counters, memo_hits),
    FIELD(holo_counters, store_hits),
    FIELD(holo_counters, store_misses),
    FIELD(holo_counters, store_corrupt),
    FIELD(holo_counters, store_puts),
    FIELD(holo_counters, bytes_hashed),
    FIELD(holo_counters, evictions),
    FIELD(holo_counters, peak_live_bytes),
    FIELD(holo_counters, peak_resident_bytes),
    FIELD(holo_counters, weight_fetches),
    FIELD(holo_counters, weight_evictions),
    FIELD(holo_counters, weight_bytes_fetched),
    FIELD(holo_counters, weight_peak_bytes),
    FIELD(holo_counters, weight_stall_ns),
    FIELD(holo_counters, spills),
    FIELD(holo_counters, promotions),

    STRUCT(holo_refine_report),
    FIELD(holo_refine_report, status),
    FIELD(holo_refine_report, passes),
    FIELD(holo_refine_report, extra_passes_used),
    FIELD(holo_refine_report, n_state),
    STRINGS(holo_refine_report, state_labels),
    FIELD(holo_refine_report, dispatches),
    FIELD(holo_refine_report, elided),
    FIELD(holo_refine_report, memo_hits),
    FIELD(holo_refine_report, bytes_compared),
    FIELD(holo_refine_report, resident_bytes),
    FIELD(holo_refine_report, resident_count),

    STRUCT(wasm_refine_args),
    FIELD(wasm_refine_args, pass_budget),
    FIELD(wasm_refine_args, validators),
    FIELD(wasm_refine_args, repair),
    FIELD(wasm_refine_args, extra_passes),
    FIELD(wasm_refine_args, has_contract),
    FIELD(wasm_refine_args, n),
    ARRAY(wasm_refine_args, input),
    ARRAY(wasm_refine_args, output),

    STRUCT(wasm_gen_args),
    FIELD(wasm_gen_args, token_input),
    FIELD(wasm_gen_args, position_input),
    FIELD(wasm_gen_args, logits_output),
    FIELD(wasm_gen_args, kind),
    FIELD(wasm_gen_args, temperature),
    FIELD(wasm_gen_args, top_k),
    FIELD(wasm_gen_args, top_p),
    FIELD(wasm_gen_args, min_p),
    FIELD(wasm_gen_args, repetition),
    FIELD(wasm_gen_args, frequency),
    FIELD(wasm_gen_args, presence),
    FIELD(wasm_gen_args, window),
    FIELD(wasm_gen_args, tau),
    FIELD(wasm_gen_args, eta),
    FIELD(wasm_gen_args, seed_lo),
    FIELD(wasm_gen_args, seed_hi),
    FIELD(wasm_gen_args, vocab),

    STRUCT(wasm_gen_stats),
    FIELD(wasm_gen_stats, steps),
    FIELD(wasm_gen_stats, dispatches),
    FIELD(wasm_gen_stats, memo_hits),
    FIELD(wasm_gen_stats, elided),
    FIELD(wasm_gen_stats, tokens),

    STRUCT(wasm_spec_report),
    FIELD(wasm_spec_report, proposed),
    FIELD(wasm_spec_report, accepted),
    FIELD(wasm_spec_report, rounds),
    FIELD(wasm_spec_report, target_steps),
    FIELD(wasm_spec_report, draft_steps),

    STRUCT(wasm_gen_logprobs),
    FIELD(wasm_gen_logprobs, status),
    FIELD(wasm_gen_logprobs, token),
    FIELD(wasm_gen_logprobs, n_top),
    FIELD(wasm_gen_logprobs, prob),
    FIELD(wasm_gen_logprobs, logprob),
    FIELD(wasm_gen_logprobs, raw_logprob),
    ARRAY(wasm_gen_logprobs, top_token),
    ARRAY(wasm_gen_logprobs, top_logprob),
    ARRAY(wasm_gen_logprobs, top_raw),

    STRUCT(wasm_pcache_stats),
    FIELD(wasm_pcache_stats, lookups),
    FIELD(wasm_pcache_stats, hits),
    FIELD(wasm_pcache_stats, misses),
    FIELD(wasm_pcache_stats, tokens_reused),
    FIELD(wasm_pcache_stats, inserts),
    FIELD(wasm_pcache_stats, evictions),
    FIELD(wasm_pcache_stats, store_hits),
    FIELD(wasm_pcache_stats, store_puts),
    FIELD(wasm_pcache_stats, bytes),
    FIELD(wasm_pcache_stats, entries),
    FIELD(wasm_pcache_stats, max_bytes),
    FIELD(wasm_pcache_stats, store_corrupt),
};

EXPORT(holo_wasm_layout_table) const layout_row *wasm_layout_table(void) { return ROWS; }
EXPORT(holo_wasm_layout_rows) uint32_t wasm_layout_rows(void) { return sizeof ROWS / sizeof ROWS[0]; }
