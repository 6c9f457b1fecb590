// The one table from a refusal message (the converter's or the runtime's) to
// the issue whose work covers it. First match wins, so the specific rules
// (control flow, data-dependent shapes, quantization) come before the
// catch-all "an operator hologram-exec lacks". A refusal no rule names is
// reported as unmapped: the table needs a row, not the zoo a pass.
//   issue 19: control flow and dynamic (data-dependent or unfolded) shapes
//   issue 20: operators (ONNX ops and attributes hologram-exec lacks)
//   issue 21: quantized and float16 models
//   issue 18: the zoo itself (graph-level conversions the zoo work owes)
export const REFUSALS = [
  { issue: 19, what: 'control flow', re: /unsupported op '(Loop|If|Scan|Sequence\w*|SplitToSequence|ConcatFromSequence)'/ },
  { issue: 19, what: 'data-dependent output shape', re: /unsupported op '(NonZero|NonMaxSuppression|Unique|Compress)'/ },
  { issue: 19, what: 'dynamic shape (a shape computation did not fold)', re: /did not fold to a constant|symbolic dims|cannot be expressed \(symbolic|unknown rank|must fold to a constant/ },
  { issue: 21, what: 'quantized', re: /unsupported op '(DynamicQuantizeLinear|QuantizeLinear|DequantizeLinear|ConvInteger|MatMulInteger|QLinear\w*|\w*Integer)'/ },
  { issue: 21, what: 'float16 / bfloat16', re: /float16|bfloat16|\bf16\b/ },
  { issue: 18, what: 'graph not topologically sorted', re: /not topologically sorted/ },
  { issue: 20, what: 'operator', re: /unsupported op '([\w.]+)'/ },
  { issue: 20, what: 'operator variant (rank, attribute)', re: /\): \w+: .* is not supported/ },
  { issue: 20, what: 'opset domain', re: /unsupported opset domain/ },
  { issue: 20, what: 'kernel (backend)', re: /unsupported op|no kernel|UNSUPPORTED/ },
];

/** { issue, what, op } for a refusal message, or { issue: null, what: 'unmapped' }. */
export function classifyRefusal(message) {
  for (const r of REFUSALS) {
    const m = r.re.exec(message);
    if (m) return { issue: r.issue, what: r.what, op: /unsupported op '([\w.]+)'/.exec(message)?.[1] ?? null };
  }
  return { issue: null, what: 'unmapped', op: null };
}
