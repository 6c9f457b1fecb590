// The integer GEMM family: MatMulInteger (opset 10) maps to the backend's op
// of the same name (kernels-wasm-simd/operators/matmul-integer.c: exact int32
// sums, zero points scalar, per row of A or per column of B).

const OPS = Object.create(null);

OPS.MatMulInteger = { attrs: [], norm: (ctx, n) => ctx.emit('MatMulInteger', n.inputs, n.outputs, {}) };

export const QGEMM_OPS = OPS;
