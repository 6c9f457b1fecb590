/* The nested-graph rules of the .holo reader (archive-graphs.c). */
#ifndef HOLO_ARCHIVE_GRAPHS_H
#define HOLO_ARCHIVE_GRAPHS_H

#include "archive.h"

/* Reads the `count` GRPH records at rec (count 0: no nested graphs) into
 * ar->graphs and ar->node_graph and checks the nesting and scope rules; ar's
 * other tables are already read and checked. */
holo_status holo__archive_graphs(holo_archive *ar, const uint8_t *rec, uint32_t count, const uint8_t *strs,
                                 uint64_t strs_len, const holo_allocator *a, holo_error *err);

#endif
