/* A session's settings and what a host may ask of it: budgets, counters,
 * port descriptions, status names. */
#include "session-impl.h"

const char *holo_status_name(holo_status st) {
  static const char *names[] = {"ok",
                                "invalid argument",
                                "bad archive",
                                "unsupported",
                                "bad input",
                                "out of memory",
                                "budget exceeded",
                                "warm store",
                                "kernel",
                                "state contract",
                                "limit",
                                "source read"};
  return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "unknown";
}

holo_status holo_session_set_retain_bytes(holo_session *s, uint64_t bytes) {
  if (!s) return HOLO_ERR_ARG;
  s->arena.retain = bytes;
  return HOLO_OK;
}

holo_status holo_session_set_memo_records(holo_session *s, uint32_t records, holo_error *err) {
  if (!s) return HOLO_ERR_ARG;
  /* The memo is a cache: a new table (its records dropped) changes hit
   * rates, never bytes or labels. The old one is freed first so that the
   * heap can reuse its bytes. */
  holo_memo_destroy(&s->memo);
  return holo_memo_init_records(&s->memo, &s->a, s->ar.n_out_ports, records, err);
}

uint32_t holo_session_memo_records(const holo_session *s) { return s && s->memo.used ? s->memo.slots : 0; }

holo_status holo_session_set_hasher(holo_session *s, const holo_hasher *h) {
  if (!s) return HOLO_ERR_ARG;
  if (h && h->sha256)
    s->hasher = *h;
  else
    s->hasher = (holo_hasher){0, 0, 0};
  return HOLO_OK;
}

holo_status holo_session_set_memory_budget(holo_session *s, uint64_t bytes) {
  if (!s) return HOLO_ERR_ARG;
  s->arena.budget = bytes;
  return HOLO_OK;
}

holo_status holo_session_set_work_budget(holo_session *s, uint64_t ops) {
  if (!s) return HOLO_ERR_ARG;
  s->work_budget = ops;
  return HOLO_OK;
}

uint64_t holo_session_last_work(const holo_session *s) { return s ? s->work : 0; }

uint32_t holo_session_input_count(const holo_session *s) { return s ? s->ar.n_in_ports : 0; }
uint32_t holo_session_output_count(const holo_session *s) { return s ? s->ar.n_out_ports : 0; }
uint32_t holo_session_kernel_count(const holo_session *s) { return s ? s->ar.n_nodes : 0; }
uint64_t holo_session_resident_bytes(const holo_session *s) { return s ? s->arena.resident_bytes : 0; }
uint32_t holo_session_resident_count(const holo_session *s) { return s ? s->arena.n_bufs : 0; }
uint32_t holo_session_content_store_len(const holo_session *s) { return s ? s->arena.count : 0; }
const char *holo_session_archive_label(const holo_session *s) { return s ? s->archive_label : ""; }
const char *holo_session_backend_identity(const holo_session *s) { return s ? s->be->identity : ""; }
const holo_archive *holo__archive(const holo_session *s) { return &s->ar; }

void holo_session_counters(const holo_session *s, holo_counters *c) {
  if (!s || !c) return;
  *c = s->c;
  c->evictions = s->arena.evictions;
  c->peak_live_bytes = s->arena.peak_live;
  c->peak_resident_bytes = s->arena.peak_resident;
  c->weight_fetches = s->w.fetches;
  c->weight_evictions = s->w.evictions;
  c->weight_bytes_fetched = s->w.fetched;
  c->weight_peak_bytes = s->w.peak;
  c->weight_stall_ns = s->w.stall_ns;
}

static holo_status port_info(const holo_session *s, uint32_t v, holo_port_info *info) {
  const holo_ar_value *val = &s->ar.values[v];
  holo_memset(info, 0, sizeof *info);
  info->name = val->name.p;
  info->name_len = val->name.len;
  info->dtype = val->dtype;
  info->rank = val->rank;
  for (uint32_t d = 0; d < HOLO_MAX_RANK && val->rank != HOLO_RANK_UNKNOWN && d < val->rank; d++) {
    info->shape[d] = val->dims[d];
    if (val->dims[d] < 0) {
      const holo_ar_str *nm = &s->ar.syms[-(val->dims[d] + 1)];
      info->symbol[d] = nm->p;
      info->symbol_len[d] = nm->len;
    }
  }
  return HOLO_OK;
}

holo_status holo_session_input_info(const holo_session *s, uint32_t i, holo_port_info *info) {
  if (!s || !info || i >= s->ar.n_in_ports) return HOLO_ERR_ARG;
  return port_info(s, s->ar.in_ports[i], info);
}

holo_status holo_session_output_info(const holo_session *s, uint32_t i, holo_port_info *info) {
  if (!s || !info || i >= s->ar.n_out_ports) return HOLO_ERR_ARG;
  return port_info(s, s->ar.out_ports[i], info);
}
