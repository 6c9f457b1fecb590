// MatMulNBits' 2-bit and 8-bit weights (com.microsoft; the 4-bit path is
// the backend's holo.DequantizeQ4, onnx-ops-msft.js), lowered to standard
// ops that keep the weight packed in the archive (decision 84):
//   B u8 [N, k_blocks, block_size * bits / 8], element j of a byte in bits
//   j*bits.. (low bits first); scales f32 [N * k_blocks]; zero_points u8
//   [N * ceil(k_blocks * bits / 8)] packed the same way per row of N, or
//   absent = 2^(bits - 1) (2 for 2-bit, 128 for 8-bit).
//   q = the unpacked codes: 8-bit B as is; 2-bit B by BitShift LEFT by
//   8 - bits*(j+1) then RIGHT by 8 - bits (u8 wraps), one code per lane j.
//   w = (Cast(q) - Cast(zp)) * scale per block, [N, k_blocks * block_size]
//   sliced to K and transposed to [K, N] -- onnxruntime's dequantization,
//   one f32 rounding per element (the difference is exact in f32).
// The first node reading B (and zero_points) is never folded: the load's
// constant cone widens the weight once, so the archive holds the packed
// bytes, not an f32 copy (a fold would: 4x the inputs is within its budget).
//   nbitsWeight(ctx, n, o) -> the name of w, f32 [K, N]
import { A, attr, DT, Unsupported } from './ir.js';

const numel = (s) => s.reduce((a, d) => a * d, 1);

/** u8 [..., m] packed `bits` per code -> u8 [..., m * 8 / bits]; the first node not folded. */
export function unpackCodes(ctx, o, x, bits, tag) {
  const per = 8 / bits, sh = ctx.shape(x);
  const u = ctx.reshapeTo(x, [...sh, 1]);
  const shifts = Array.from({ length: per }, (_, j) => 8 - bits * (j + 1));
  const left = ctx.constRaw(`${o}_${tag}_shl`, DT.u8, [per], Uint8Array.from(shifts));
  const right = ctx.constScalar(`${o}_${tag}_shr`, DT.u8, 8 - bits);
  const [l] = ctx.emit('BitShift', [u, left], [ctx.tmp(`${o}_${tag}_l`)], { direction: A.string('LEFT') }, { noFold: true });
  const [r] = ctx.emit('BitShift', [l, right], [ctx.tmp(`${o}_${tag}_r`)], { direction: A.string('RIGHT') });
  return reshape(ctx, o, r, [...sh.slice(0, -1), sh[sh.length - 1] * per]);
}

function reshape(ctx, o, x, dims) {
  return ctx.emit('Reshape', [x, ctx.constI64(`${o}_shape`, dims)], [ctx.tmp(`${o}_rs`)], { allowzero: A.int(0) })[0];
}

function slice(ctx, o, x, axis, end) {
  const c = (v) => ctx.constI64(`${o}_sl`, [v]);
  return ctx.emit('Slice', [x, c(0), c(end), c(axis)], [ctx.tmp(`${o}_sl`)], {})[0];
}

/** Codes as f32 [N, kb, 1 or bs]: 8-bit cast directly (not folded), 2-bit unpacked first. */
function codesF32(ctx, o, x, bits, tag) {
  const q = bits === 8 ? x : unpackCodes(ctx, o, x, bits, tag);
  return ctx.emit('Cast', [q], [ctx.tmp(`${o}_${tag}_f`)], { to: A.int(DT.f32) }, { noFold: bits === 8 })[0];
}

function checkNBits(ctx, n, b, s, z) {
  const K = attr(n, 'K'), N = attr(n, 'N'), bs = attr(n, 'block_size'), bits = attr(n, 'bits', 4);
  if (!(bs >= 16 && (bs & (bs - 1)) === 0)) throw new Unsupported(`block_size = ${bs} must be a power of 2 >= 16`);
  const kb = Math.ceil(K / bs), blob = (bs * bits) / 8;
  const bsh = ctx.shape(b);
  if (!bsh || bsh.length !== 3 || bsh[0] !== N || bsh[1] !== kb || bsh[2] !== blob) throw new Unsupported(`B must be uint8 [N, ceil(K / block_size), block_size * bits / 8] = [${N}, ${kb}, ${blob}], got ${JSON.stringify(bsh)}`);
  const ssh = ctx.shape(s);
  if (!ssh || numel(ssh) !== N * kb) throw new Unsupported(`scales must hold N * k_blocks = ${N * kb} values`);
  const zrow = Math.ceil((kb * bits) / 8);
  if (z) {
    const zsh = ctx.shape(z);
    if (!zsh || numel(zsh) !== N * zrow) throw new Unsupported(`zero_points must hold N * ceil(k_blocks * bits / 8) = ${N * zrow} bytes`);
  }
  return { K, N, bs, bits, kb, zrow };
}

/** The dequantized weight of a 2- or 8-bit MatMulNBits, f32 [K, N]. */
export function nbitsWeight(ctx, n, o) {
  const [, b, s, z] = n.inputs;
  const { K, N, bs, bits, kb, zrow } = checkNBits(ctx, n, b, s, z);
  const q = codesF32(ctx, o, b, bits, 'b');
  let zf;
  if (z) {
    zf = codesF32(ctx, o, ctx.reshapeTo(z, [N, zrow]), bits, 'z');
    if (zrow * (8 / bits) !== kb) zf = slice(ctx, o, zf, 1, kb);
    zf = reshape(ctx, o, zf, [N, kb, 1]);
  } else {
    zf = ctx.constScalar(`${o}_zp`, DT.f32, 2 ** (bits - 1));
  }
  const d = ctx.emit('Sub', [q, zf], [ctx.tmp(`${o}_d`)], {})[0];
  const m = ctx.emit('Mul', [d, ctx.reshapeTo(s, [N, kb, 1])], [ctx.tmp(`${o}_m`)], {})[0];
  let w = reshape(ctx, o, m, [N, kb * bs]);
  if (kb * bs !== K) w = slice(ctx, o, w, 1, K);
  return ctx.emit('Transpose', [w], [ctx.tmp(`${o}_w`)], { perm: A.ints([1, 0]) })[0];
}
