// Jazzer.js target over compiler/convert.js convert(): the input is the
// ONNX file's bytes (seeds: tests/fuzz/corpus/convert/, made by
// gen-corpus.mjs). A finding is thrown so Jazzer saves the input; refusals
// and converted archives return normally. Run through `make fuzz-convert`
// (tests/fuzz/convert.mk), which sets the time and memory bounds.
import { checkConvert } from './oracle.mjs';

export function fuzz(data) {
  const r = checkConvert(data);
  if (!r.ok) {
    const e = new Error(`fuzz_convert finding: ${r.finding}`);
    if (r.stack) e.stack = `${e.message}\n  from: ${r.stack}`;
    throw e;
  }
}
