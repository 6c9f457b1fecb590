// Opset 1-5 models: most ops of those opsets are the opset-6 op with one more
// attribute, `consumed_inputs`, which the spec calls a legacy optimization
// hint (it names inputs an implementation may overwrite in place) with no
// effect on any output; it is dropped. The ops whose version before 6 reads
// its inputs or attributes differently are refused here, by name, rather
// than normalized as the later version (a wrong answer); Concat's axis
// default of opsets 1-3 is written out by its normalizer.
import { Unsupported } from './ir.js';

// op -> [the first opset whose form the normalizers implement, why earlier ones differ]
const DIFFERS = {
  Tile: [6, 'Tile-1 takes `tiles` and `axis` as inputs (Tile-6 takes one `repeats` input)'],
  Split: [2, 'Split-1 takes the split lengths as an optional second input'],
  Reshape: [5, 'Reshape-1 takes the target shape as an attribute'],
  LpPool: [2, 'LpPool-1 has a float `p`'],
  GlobalLpPool: [2, 'GlobalLpPool-1 has a float `p`'],
  Upsample: [7, 'Upsample-1 is the experimental op (height_scale/width_scale)'],
  Cast: [6, "Cast-1 names its target type by a string 'to'"],
};

/** The table, for docs/operators.md (tools/gen-operators.mjs). */
export const LEGACY_DIFFERS = DIFFERS;

/** The node as its opset-6 form, or a refusal naming the difference (`opset` < 6 only). */
export function legacyNode(n, opset) {
  if (opset >= 6) return n;
  const d = DIFFERS[n.opType];
  if (d && opset < d[0]) throw new Unsupported(`opset ${opset}: ${d[1]}, which is not supported`);
  if (n.attrs.consumed_inputs === undefined) return n;
  const attrs = { ...n.attrs };
  delete attrs.consumed_inputs;
  return { ...n, attrs };
}
