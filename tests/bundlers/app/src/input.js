// The app's deterministic input for a port shape (shared with the runner,
// which computes Node's expected output from the same numbers).
export function inputFor(shape, seed = 7) {
  const n = shape.reduce((a, b) => a * b, 1);
  const x = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    x[i] = (s / 2 ** 32) * 2 - 1;
  }
  return x;
}
