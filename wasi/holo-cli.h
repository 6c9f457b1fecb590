/* The `holo` command-line program (native std build and WASI holo.wasm):
 * shared declarations of wasi/cli-*.c. docs/cli.md is the user's page.
 *
 * Exit codes: 0 ok, 1 usage, 2 bad archive, 3 bad input, 4 resource limit.
 * Every failure prints one line on stderr: "holo: <file>: <cause>". */
#ifndef HOLO_CLI_H
#define HOLO_CLI_H

#include "hologram/holo.h"

enum { CLI_OK = 0, CLI_USAGE = 1, CLI_ARCHIVE = 2, CLI_INPUT = 3, CLI_LIMIT = 4 };

#define CLI_MAX_SPECS 256
#define CLI_MAX_PORTS 64

/* A per-port option as given: "[PORT=]VALUE". port is NULL when absent;
 * then `seq` says what it refers to (see cli_resolve_specs). */
typedef enum { SPEC_INPUT, SPEC_DTYPE, SPEC_SHAPE, SPEC_OUTPUT, SPEC_STATE_IN, SPEC_STATE_OUT } cli_spec_kind;
typedef struct cli_spec {
  cli_spec_kind kind;
  const char *raw;  /* the whole argument */
  const char *port; /* points into a copy; NULL: positional */
  const char *value;
  int seq;          /* positional index among specs of the same kind, or, for
                       dtype/shape, the index of the latest --input spec (-1: none) */
  int resolved;     /* port index after resolution */
} cli_spec;

typedef struct cli {
  const char *verb, *file, *store_dir, *out_dir;
  uint64_t store_max_bytes, store_max_entries; /* 0: the FileWarmStore defaults */
  const char *variant; /* --variant: checked against the one built in */
  cli_spec specs[CLI_MAX_SPECS];
  int n_specs;
  uint64_t budget;
  uint64_t weight_budget; /* --weight-budget: 0 = the whole file in memory */
  int repeat;        /* bench */
  bool print, trust_store;
  /* refine */
  uint32_t passes, retry;
  uint32_t validators;
  bool retry_set;
} cli;

/* --- cli-io.c: files, with one-line messages that name the path --- */
/* Prints "holo: " + formatted message to stderr and returns code. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Compatibility with cli-dump.c: "holo: WHAT: err->message". */
int holo_cli_fail(const char *what, const holo_error *err, int code);
/* Reads a whole file into a 64-byte-aligned buffer (free()). On failure
 * prints the cause (missing preopen, directory, missing file, unreadable)
 * and returns `code`; 0 on success. */
int cli_read_file(const char *path, int code, uint8_t **bytes, size_t *len);
/* Writes head then body to path (replacing it). code on failure. */
int cli_write_file(const char *path, int code, const void *head, size_t head_len, const void *body, size_t len);
/* Makes sure dir exists and is a directory (creates it). code on failure. */
int cli_ensure_dir(const char *dir, int code, const char *what);
/* Under WASI, takes the host's working directory from $PWD when the host
 * preopened a directory that holds it (bindings-js/bin/wasi-runner.js
 * preopens / and sets PWD), so relative, ../ and absolute paths resolve as
 * natively; otherwise, and natively, does nothing. */
void cli_host_cwd(void);
/* Opens the FileWarmStore in dir (created if missing) with these bounds
 * (0: the default of holo-std.h). CLI_INPUT with the cause on failure. */
struct holo_file_store;
int cli_open_store(struct holo_file_store *fs, const char *dir, uint64_t max_bytes, uint64_t max_entries);
/* Exit code of a runtime status. */
int cli_exit_code(holo_status st);

/* --- cli-num.c: the one parser of numeric flag values (every verb) --- */
/* A decimal integer, the whole string: no sign, space, trailing bytes or
 * overflow; suffix: also k/m/g (KiB/MiB/GiB, then optional B or iB). */
bool cli_parse_u64(const char *s, uint64_t *out, bool suffix);
/* A finite decimal number, the whole string (no inf, nan, hex, space). */
bool cli_parse_f64(const char *s, double *out);
/* flag's value v in [lo, hi], else a one-line usage error naming flag and
 * value: returns CLI_USAGE (0 on success). */
int cli_flag_u64(const char *flag, const char *v, uint64_t lo, uint64_t hi, uint64_t *out);
/* A byte count >= 1 (suffix k/m/g like cli_parse_u64), else CLI_USAGE. */
int cli_flag_bytes(const char *flag, const char *v, uint64_t *out);
int cli_flag_u32(const char *flag, const char *v, uint32_t lo, uint32_t hi, uint32_t *out);
/* A float between lo and hi (each bound open or closed; +-HUGE_VAL: none). */
int cli_flag_f32(const char *flag, const char *v, double lo, double hi, bool lo_open, bool hi_open,
                 float *out);

/* --- cli-npy.c: NumPy .npy (format 1.0/2.0/3.0, little-endian, C order) --- */
typedef struct cli_npy {
  uint32_t dtype; /* holo dtype */
  uint32_t rank;
  int64_t shape[HOLO_MAX_RANK];
  const uint8_t *data;
  size_t len;
  char descr[32];
} cli_npy;
bool cli_is_npy(const uint8_t *b, size_t len);
/* Parses; on failure returns false with a cause in why[cap]. */
bool cli_npy_parse(const uint8_t *b, size_t len, cli_npy *out, char *why, size_t cap);
/* The .npy header (format 1.0, padded to a multiple of 64 like NumPy) for
 * a tensor; returns its length (0: dtype has no .npy form). */
size_t cli_npy_header(uint32_t dtype, const int64_t *shape, uint32_t rank, char *out, size_t cap);
const char *cli_dtype_name(uint32_t dt);
/* "float32", "f4", "<f4", "int64", "i8", "bool", "b1", ... -> holo dtype, 0 if unknown. */
uint32_t cli_dtype_parse(const char *s);

/* --- cli-run.c --- */
int cli_run(holo_session *s, const cli *c);
int cli_bench(holo_session *s, const cli *c, double load_ms);
void cli_print_counters(const char *prefix, const holo_session *s);
void cli_print_shape(const int64_t *shape, uint32_t rank);
/* Resolves PORT= prefixes and positional specs against the session's ports. */
int cli_resolve_specs(holo_session *s, cli *c);
/* Builds the inputs of every port (files, or a generated pattern). owned[i]
 * and shapes must be released with cli_inputs_free. */
typedef struct cli_inputs {
  uint32_t n;
  holo_input in[CLI_MAX_PORTS];
  int64_t shape[CLI_MAX_PORTS][HOLO_MAX_RANK];
  uint8_t *owned[CLI_MAX_PORTS];
  const char *source[CLI_MAX_PORTS]; /* file name, or NULL: generated */
} cli_inputs;
int cli_inputs_build(holo_session *s, const cli *c, cli_inputs *ins);
/* Output count (<= CLI_MAX_PORTS), the --out directory, and the inputs, for
 * run and refine; on failure nothing is left to free. */
int cli_prepare_io(holo_session *s, const cli *c, cli_inputs *ins, uint32_t *n_out);
void cli_inputs_free(cli_inputs *ins);
/* Where output o goes: its --output FILE, DIR/<name>.npy under -o DIR, or NULL. */
const char *cli_output_dest(holo_session *s, const cli *c, uint32_t o, char *buf, size_t cap);
int cli_write_npy(const char *path, uint32_t dtype, const int64_t *shape, uint32_t rank, const void *data, size_t len);
/* Flips low bits of the first elements of every input so that variant k
 * (k >= 1) differs from every other variant (and calling it again with the
 * same k restores the inputs): bench never hits the memo by accident. */
void cli_inputs_perturb(holo_session *s, cli_inputs *ins, uint32_t k);
double cli_now_ms(void);

/* --- cli-generate.c: `holo generate` (parses its own command line) --- */
int cli_generate_main(int argc, char **argv);

/* --- cli-refine.c --- */
int cli_refine(holo_session *s, const cli *c);

/* --- cli-dump.c / cli-info.c --- */
int holo_cli_dump(const char *path);
int cli_info(holo_session *s, const cli *c, const uint8_t *bytes, size_t len, double load_ms);

#endif
