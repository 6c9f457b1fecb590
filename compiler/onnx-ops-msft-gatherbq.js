// com.microsoft GatherBlockQuantized (data, indices, scales, zero_points?;
// gather_axis, quantize_axis, block_size, bits) with uint8 data, lowered to
// standard ops that gather the packed bytes first (decision 87):
//   data u8 [D0, ..., P]: bits 8 one code a byte, bits 4 / 2 two / four
//   codes a byte, code j in bits j*bits.. (low first), the last axis
//   holding L = P * 8 / bits codes; scales f32 [D0, ..., ceil(L /
//   block_size)]; zero_points u8 of scales' shape packed the same way
//   along the last axis (ceil(blocks * bits / 8) bytes a row), absent =
//   2^(bits - 1) (onnxruntime's default for uint8 data).
//   y = Gather(data), Gather(scales), Gather(zero_points) on axis 0 with the
//   same indices, the gathered codes unpacked (unpackCodes,
//   onnx-ops-msft-nbits.js), each scale / zero point Expanded over its block
//   (Sliced to L for a partial last block), then (float)(q - zp) * scale --
//   onnxruntime's one f32 rounding per element.
// The archive holds the packed bytes (the first node reading them is a
// Gather of runtime indices, or, for constant indices, a noFold unpack /
// Cast as MatMulNBits' 2/8-bit path has, decision 84): only the gathered
// rows are ever widened to f32.
// onnxruntime's uint8 kernel takes only gather_axis = 0 and quantize_axis =
// the last axis (others fail its session), so those are the ones taken;
// refused: int4 / uint4 / float8 data, float16 scales, other bits, a
// block_size that is not a power of 2 >= 16. An index out of range is an
// error at run time (onnxruntime writes zeros for it).
import { A, attr, DT, Unsupported } from './ir.js';
import { unpackCodes } from './onnx-ops-msft-nbits.js';

const OPS = Object.create(null);
const concrete = (s) => Array.isArray(s) && s.every((d) => typeof d === 'number');

OPS.GatherBlockQuantized = {
  attrs: ['gather_axis', 'quantize_axis', 'block_size', 'bits'],
  norm(ctx, n) {
    const [data, idx, sc, zp] = n.inputs;
    if (!idx || !sc) throw new Unsupported('data, indices and scales are required');
    const ddt = ctx.value(data).dtype;
    if (ddt !== DT.u8) throw new Unsupported(`data of dtype ${ddt} is not supported (uint8 packed data is; int4, uint4 and float8 are not)`);
    if (ctx.value(sc).dtype !== DT.f32) throw new Unsupported('scales must be float32 (float16 is not supported)');
    if (zp && ctx.value(zp).dtype !== DT.u8) throw new Unsupported('zero_points must be uint8');
    if (![DT.i32, DT.i64].includes(ctx.value(idx).dtype)) throw new Unsupported('indices must be int32 or int64');
    const bits = attr(n, 'bits', 4), bs = attr(n, 'block_size', 128);
    if (![2, 4, 8].includes(bits)) throw new Unsupported(`bits = ${bits} is not supported (2, 4 and 8 are)`);
    if (!(bs >= 16 && (bs & (bs - 1)) === 0)) throw new Unsupported(`block_size = ${bs} must be a power of 2 >= 16`);
    const dsh = ctx.shape(data), ssh = ctx.shape(sc), ish = ctx.shape(idx);
    if (!concrete(dsh) || !concrete(ssh) || !concrete(ish)) throw new Unsupported('data, scales and indices need shapes known at convert time');
    const r = dsh.length;
    if (r < 2) throw new Unsupported('data needs rank 2 or more');
    let ga = attr(n, 'gather_axis', 0), qa = attr(n, 'quantize_axis', 1);
    if (ga < 0) ga += r;
    if (qa < 0) qa += r;
    if (ga !== 0 || qa !== r - 1) throw new Unsupported(`gather_axis ${attr(n, 'gather_axis', 0)} / quantize_axis ${attr(n, 'quantize_axis', 1)}: uint8 data takes gather_axis 0 and quantize_axis the last axis (onnxruntime's kernel)`);
    const per = 8 / bits, L = dsh[r - 1] * per, nb = Math.ceil(L / bs);
    if (ssh.length !== r || ssh[r - 1] !== nb || ssh.slice(0, -1).some((d, i) => d !== dsh[i])) throw new Unsupported(`scales must be [${[...dsh.slice(0, -1), nb]}], got [${ssh}]`);
    const zrow = Math.ceil(nb / per);
    if (zp) {
      const zsh = ctx.shape(zp);
      if (!concrete(zsh) || zsh.length !== r || zsh[r - 1] !== zrow || zsh.slice(0, -1).some((d, i) => d !== dsh[i])) throw new Unsupported(`zero_points must be [${[...dsh.slice(0, -1), zrow]}] bytes`);
    }
    const o = n.outputs[0];
    const e = (op, ins, attrs = {}, opts) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs, opts)[0];
    const gather = (v) => e('Gather', [v, idx], { axis: A.int(0) });
    const lead = [...ish, ...dsh.slice(1, -1)];
    const i64 = (arr) => ctx.constI64(`${o}_s`, arr);
    const slice = (v, end) => e('Slice', [v, i64([0]), i64([end]), i64([-1])]);
    const toF = (v, fresh) => e('Cast', [v], { to: A.int(DT.f32) }, { noFold: fresh });
    // codes: [lead..., L] f32
    const g = gather(data);
    const q = toF(bits === 8 ? g : unpackCodes(ctx, o, g, bits, 'q'), bits === 8);
    /** [lead..., nb] -> one value per element, [lead..., L] */
    const perElem = (v) => {
      const u = ctx.reshapeTo(v, [...lead, nb, 1]);
      const x = e('Expand', [u, i64([...lead, nb, bs])]);
      const f = ctx.reshapeTo(x, [...lead, nb * bs]);
      return nb * bs === L ? f : slice(f, L);
    };
    let z;
    if (zp) {
      const gz = gather(zp);
      let zf = toF(bits === 8 ? gz : unpackCodes(ctx, o, gz, bits, 'z'), bits === 8);
      if (zrow * per !== nb) zf = slice(zf, nb);
      z = perElem(zf);
    } else {
      z = ctx.constScalar(`${o}_zp`, DT.f32, 2 ** (bits - 1));
    }
    const d = e('Sub', [q, z]);
    ctx.emit('Mul', [d, perElem(gather(sc))], [o], {});
  },
};

export const MSFT_GATHERBQ_OPS = OPS;
