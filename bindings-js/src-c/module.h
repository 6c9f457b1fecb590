/* What every export file of the core module shares: the module's one heap
 * (module.c: the runtime keeps no global state, the module instance does)
 * and a way to report a failure that did not come from the core. */
#ifndef HOLO_WASM_MODULE_H
#define HOLO_WASM_MODULE_H

#include "hologram/holo.h"

#define EXPORT(name) __attribute__((export_name(#name)))
#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))

void *wasm_alloc(size_t size, size_t align);
void wasm_free(void *p);
/* The heap as the core's allocator interface. */
extern const holo_allocator wasm_allocator;

/* err = {st, message} (truncated to HOLO_MSG_CAP); returns st. */
holo_status wasm_set_error(holo_error *err, holo_status st, const char *message);

#endif
