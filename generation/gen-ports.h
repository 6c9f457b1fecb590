/* The shapes the generator gives its token and state inputs (gen-ports.c). */
#ifndef HOLO_GEN_PORTS_H
#define HOLO_GEN_PORTS_H

#include "hologram/generate.h"

/* Reads the token port: sets g->seq and g->grow (a symbolic last dim). */
holo_status holo_gen_token_port(holo_gen *g, holo_error *err);
/* The token input's shape for an execution on n tokens (grow) or g->seq. */
void holo_gen_token_shape(const holo_gen *g, uint32_t n, int64_t shape[HOLO_MAX_RANK], uint32_t *rank);
/* The initial (empty) state's shape of input port `port`. */
holo_status holo_gen_zero_shape(const holo_gen *g, uint32_t port, int64_t shape[HOLO_MAX_RANK], uint32_t *rank,
                                holo_error *err);
/* The vocabulary: the logits' static last dim, else m->vocab. */
holo_status holo_gen_vocab(holo_gen *g, const holo_port_info *logits, holo_error *err);

#endif
