/* Refinement: a bounded execution strategy around execute_addressed, not a
 * graph op or a kernel. Each pass's state outputs become the next pass's
 * state inputs; validators at each pass boundary decide convergence.
 *
 * State values are content-labelled between passes (their bytes hashed
 * once, like any boundary input), so a state that repeats an earlier one
 * repeats its label: StableLabels is then O(state ports) and a converged
 * fixed point is a memo hit that dispatches nothing. */
#ifndef HOLOGRAM_REFINE_H
#define HOLOGRAM_REFINE_H

#include "hologram/holo.h"

#define HOLO_MAX_STATE 64

typedef enum holo_validator_kind {
  HOLO_VALIDATE_STABLE_LABELS = 1u << 0, /* state labels equal the previous pass's */
  HOLO_VALIDATE_STABLE_BYTES = 1u << 1   /* state bytes equal, compared in place */
} holo_validator_kind;

typedef enum holo_repair_kind {
  HOLO_REPAIR_NONE = 0,
  HOLO_REPAIR_RETRY_PASS = 1 /* up to extra_passes more passes after the budget */
} holo_repair_kind;

/* Which inputs are state, and which output feeds each. Inputs not named
 * stay fixed across passes. */
typedef struct holo_state_contract {
  uint32_t n;
  uint32_t input[HOLO_MAX_STATE];
  uint32_t output[HOLO_MAX_STATE];
} holo_state_contract;

typedef struct holo_refine_plan {
  uint32_t pass_budget;
  uint32_t validators; /* HOLO_VALIDATE_* bits */
  holo_repair_kind repair;
  uint32_t extra_passes;
  bool has_contract;
  holo_state_contract contract;
  bool built;
} holo_refine_plan;

/* The archive's own state contract (its STAT section): c->n = 0 when the
 * archive declares none. */
holo_status holo_session_state_contract(const holo_session *s, holo_state_contract *c);

/* Builder: init, then any of validator/repair/contract, then build. */
void holo_refine_plan_init(holo_refine_plan *p, uint32_t pass_budget);
void holo_refine_plan_validator(holo_refine_plan *p, holo_validator_kind v);
void holo_refine_plan_repair(holo_refine_plan *p, holo_repair_kind r, uint32_t extra_passes);
void holo_refine_plan_contract(holo_refine_plan *p, const holo_state_contract *c);
/* Refuses a zero budget and contradictory options with a message. */
holo_status holo_refine_plan_build(holo_refine_plan *p, holo_error *err);

typedef enum holo_refine_status {
  HOLO_REFINE_CONVERGED = 0,
  HOLO_REFINE_BUDGET_EXHAUSTED = 1,
  HOLO_REFINE_REPAIRED = 2, /* converged during the repair passes */
  HOLO_REFINE_FAILED = 3    /* repair passes spent without convergence */
} holo_refine_status;

typedef struct holo_refine_report {
  holo_refine_status status;
  uint32_t passes;            /* passes run, repair passes included */
  uint32_t extra_passes_used;
  uint32_t n_state;
  char state_labels[HOLO_MAX_STATE][HOLO_LABEL_LEN + 1]; /* final state */
  uint64_t dispatches, elided, memo_hits; /* during this refinement */
  uint64_t bytes_compared;                /* by StableBytes */
  uint64_t resident_bytes;
  uint32_t resident_count;
} holo_refine_report;

/* Borrowed: runs a plan over an existing session. */
typedef struct holo_refine_runner {
  holo_session *s;
  const holo_refine_plan *plan;
  holo_state_contract contract; /* resolved: the plan's, the archive's, or derived */
} holo_refine_runner;

/* Checks the contract against the session's ports: arity, dtype, shape,
 * element count and byte length of each state input/output pair; a
 * mismatch is HOLO_ERR_STATE naming the port and the field. */
holo_status holo_refine_runner_init(holo_refine_runner *r, holo_session *s, const holo_refine_plan *plan,
                                    holo_error *err);
/* inputs: every input port in order (state inputs carry the initial state).
 * On HOLO_OK, *final (optional, n_out views) holds the last pass's outputs. */
holo_status holo_refine_run(holo_refine_runner *r, const holo_input *inputs, uint32_t n,
                            holo_refine_report *report, holo_view *final, uint32_t n_out, holo_error *err);

/* Owning: a session and a plan together. */
typedef struct holo_compiled_refinement holo_compiled_refinement;
holo_status holo_compiled_refinement_new(const uint8_t *archive, size_t len, const holo_backend *backend,
                                         const holo_options *options, const holo_refine_plan *plan,
                                         holo_compiled_refinement **out, holo_error *err);
holo_session *holo_compiled_refinement_session(holo_compiled_refinement *c);
holo_status holo_compiled_refinement_run(holo_compiled_refinement *c, const holo_input *inputs, uint32_t n,
                                         holo_refine_report *report, holo_error *err);
void holo_compiled_refinement_free(holo_compiled_refinement *c);

const char *holo_refine_status_name(holo_refine_status st);

#endif
