/* `holo refine`: a refinement plan from flags, run over the archive's
 * inputs; the report is printed as one JSON object. The final outputs can
 * be written like `run`'s (-o DIR, --output [PORT=]FILE). */
#include <stdio.h>

#include "hologram/refine.h"
#include "holo-cli.h"

static void json_str(const char *p, size_t n) {
  putchar('"');
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (ch == '"' || ch == '\\') printf("\\%c", ch);
    else if (ch < 0x20) printf("\\u%04x", ch);
    else putchar(ch);
  }
  putchar('"');
}

int cli_refine(holo_session *s, const cli *c) {
  holo_refine_plan plan;
  holo_error err = {0};
  holo_refine_plan_init(&plan, c->passes);
  if (c->validators & HOLO_VALIDATE_STABLE_LABELS) holo_refine_plan_validator(&plan, HOLO_VALIDATE_STABLE_LABELS);
  if (c->validators & HOLO_VALIDATE_STABLE_BYTES) holo_refine_plan_validator(&plan, HOLO_VALIDATE_STABLE_BYTES);
  if (c->retry_set) holo_refine_plan_repair(&plan, HOLO_REPAIR_RETRY_PASS, c->retry);
  holo_state_contract sc = {0};
  uint32_t n_in = 0, n_out = 0;
  for (int k = 0; k < c->n_specs; k++) {
    const cli_spec *sp = &c->specs[k];
    if (sp->kind == SPEC_STATE_IN && n_in < HOLO_MAX_STATE) sc.input[n_in++] = (uint32_t)sp->resolved;
    if (sp->kind == SPEC_STATE_OUT && n_out < HOLO_MAX_STATE) sc.output[n_out++] = (uint32_t)sp->resolved;
  }
  if (n_in != n_out)
    return cli_fail(CLI_USAGE, "refine: %u --state-in but %u --state-out; give them in pairs", n_in, n_out);
  if (n_in) {
    sc.n = n_in;
    holo_refine_plan_contract(&plan, &sc);
  }
  holo_status st = holo_refine_plan_build(&plan, &err);
  if (st) return cli_fail(st == HOLO_ERR_LIMIT ? CLI_LIMIT : CLI_USAGE, "refine: %s", err.message);
  holo_refine_runner runner;
  if ((st = holo_refine_runner_init(&runner, s, &plan, &err))) return holo_cli_fail(c->file, &err, cli_exit_code(st));

  uint32_t no;
  cli_inputs ins;
  int rc = cli_prepare_io(s, c, &ins, &no);
  if (rc) return rc;
  holo_refine_report rep;
  holo_view views[CLI_MAX_PORTS];
  double t0 = cli_now_ms();
  st = holo_refine_run(&runner, ins.in, ins.n, &rep, views, no, &err);
  double ms = cli_now_ms() - t0;
  cli_inputs_free(&ins);
  if (st) return holo_cli_fail(c->file, &err, cli_exit_code(st));

  /* Outputs first (a failure to write is reported before any JSON). */
  char path[1400];
  for (uint32_t o = 0; o < no && !rc; o++) {
    const char *dest = cli_output_dest(s, c, o, path, sizeof path);
    if (dest) rc = cli_write_npy(dest, views[o].dtype, views[o].shape, views[o].rank, views[o].data, views[o].len);
  }
  if (rc) return rc;

  printf("{\"status\":\"%s\",\"passes\":%u,\"pass_budget\":%u,\"extra_passes_used\":%u,\"validators\":[",
         holo_refine_status_name(rep.status), rep.passes, plan.pass_budget, rep.extra_passes_used);
  bool first = true;
  if (plan.validators & HOLO_VALIDATE_STABLE_LABELS) printf("\"stable-labels\""), first = false;
  if (plan.validators & HOLO_VALIDATE_STABLE_BYTES) printf("%s\"stable-bytes\"", first ? "" : ",");
  printf("],\"state\":[");
  for (uint32_t k = 0; k < rep.n_state; k++) {
    holo_port_info pi, po;
    holo_session_input_info(s, runner.contract.input[k], &pi);
    holo_session_output_info(s, runner.contract.output[k], &po);
    printf("%s{\"input\":%u,\"input_name\":", k ? "," : "", runner.contract.input[k]);
    json_str(pi.name, pi.name_len);
    printf(",\"output\":%u,\"output_name\":", runner.contract.output[k]);
    json_str(po.name, po.name_len);
    printf(",\"label\":\"%s\"}", rep.state_labels[k]);
  }
  printf("],\"outputs\":[");
  for (uint32_t o = 0; o < no; o++) printf("%s\"%s\"", o ? "," : "", views[o].label);
  printf("],\"dispatches\":%llu,\"elided\":%llu,\"memo_hits\":%llu,\"bytes_compared\":%llu,"
         "\"resident_bytes\":%llu,\"resident_count\":%u,\"refine_ms\":%.4f}\n",
         (unsigned long long)rep.dispatches, (unsigned long long)rep.elided, (unsigned long long)rep.memo_hits,
         (unsigned long long)rep.bytes_compared, (unsigned long long)rep.resident_bytes, rep.resident_count, ms);
  return 0;
}
