// Resize (opsets 10, 11, 13, 18, 19) and Upsample (7, 9) onto the canonical
// opset-18 Resize: inputs X, roi, scales, sizes ('' where absent) and every
// attribute written out. Resize-10 and Upsample have no
// coordinate_transformation_mode: they are asymmetric, and nearest takes the
// floor (onnx's own 10 -> 11 version adapter says the same). GridSample
// (16, 20) samples at a grid of points: kernels-wasm-simd/operators/gridsample.c.
import { A, attr, DT, readElems, writeElems, Unsupported } from './ir.js';

const RESIZE_ATTRS = ['mode', 'coordinate_transformation_mode', 'nearest_mode', 'cubic_coeff_a', 'exclude_outside',
  'extrapolation_value', 'antialias', 'axes', 'keep_aspect_ratio_policy'];

function resizeAttrs(n, legacy) {
  const mode = attr(n, 'mode', 'nearest');
  // antialias (opset 18) widens linear/cubic's filter on a downsampled axis
  // (operators/resize-taps.c); nearest ignores it. keep_aspect_ratio_policy
  // rescales sizes (operators/resize.c aspect_policy; decision 100)
  if (![0, 1].includes(attr(n, 'antialias', 0))) throw new Unsupported(`antialias must be 0 or 1, got ${attr(n, 'antialias')}`);
  const policy = attr(n, 'keep_aspect_ratio_policy', 'stretch');
  if (!['stretch', 'not_larger', 'not_smaller'].includes(policy))
    throw new Unsupported(`keep_aspect_ratio_policy '${policy}' is not valid (stretch, not_larger, not_smaller)`);
  if (!['nearest', 'linear', 'cubic'].includes(mode) || (legacy && mode === 'cubic'))
    throw new Unsupported(`mode '${mode}' is not valid`);
  const ctm = legacy ? 'asymmetric' : attr(n, 'coordinate_transformation_mode', 'half_pixel');
  // opset 19's half_pixel_symmetric shifts the grid by a per-axis offset (size rounding); not in the kernel
  if (ctm === 'half_pixel_symmetric') throw new Unsupported(`coordinate_transformation_mode 'half_pixel_symmetric' (opset 19) is not supported`);
  const a = {
    mode: A.string(mode),
    coordinate_transformation_mode: A.string(ctm),
    nearest_mode: A.string(legacy ? 'floor' : attr(n, 'nearest_mode', 'round_prefer_floor')),
    cubic_coeff_a: A.float(attr(n, 'cubic_coeff_a', -0.75)),
    exclude_outside: A.int(attr(n, 'exclude_outside', 0)),
    extrapolation_value: A.float(attr(n, 'extrapolation_value', 0.0)),
    antialias: A.int(attr(n, 'antialias', 0)),
    keep_aspect_ratio_policy: A.string(attr(n, 'keep_aspect_ratio_policy', 'stretch')),
  };
  if (n.attrs.axes) a.axes = A.ints(attr(n, 'axes'));
  return a;
}

/**
 * A uint8 antialiased Resize (what torchvision exports for images), as
 * onnxruntime computes it: one pass per resized axis, the innermost first,
 * each rounded half up and clamped to [0, 255] (its fixed point
 * (sum x * round(w * 2^22) + 2^21) >> 22 and clip table), here an f32
 * single-axis Resize, Add 0.5, Floor, Clip. The per-axis taps are those of
 * the whole Resize (an axis's filter depends only on that axis), so only the
 * weights' 2^-22 quantization can differ: a sum within ~1e-4 of a half may
 * round the other way. With constant scales/sizes the kept axes take no
 * pass; a keep_aspect_ratio_policy's one scale is not a single axis's
 * sizes[i] / in, so that case resizes in one f32 pass and rounds once
 * (the intermediate rounding then differs by up to 1; decision 100).
 */
function uint8Antialias(ctx, n, ins, a) {
  const o = n.outputs[0], x = ins[0];
  const e = (op, xs, at = {}) => ctx.emit(op, xs, [ctx.tmp(`${o}_${op}`)], at)[0];
  const round = (y, tag) => e('Clip', [e('Floor', [e('Add', [y, ctx.constScalar(`${o}_half${tag}`, DT.f32, 0.5)])]),
    ctx.constScalar(`${o}_lo${tag}`, DT.f32, 0), ctx.constScalar(`${o}_hi${tag}`, DT.f32, 255)]);
  const [roi, scales, sizes] = ins.slice(1);
  const target = sizes || scales, r = ctx.shape(x)?.length;
  const policy = attr(n, 'keep_aspect_ratio_policy', 'stretch') !== 'stretch' && sizes;
  const tc = target && ctx.isConst(target) ? readElems(ctx.value(target).dtype, ctx.value(target).bytes).map(Number) : null;
  const axes = (attr(n, 'axes', null) ?? (r === undefined ? null : [...Array(r).keys()]))?.map((d) => (d < 0 ? d + r : d));
  let y = e('Cast', [x], { to: A.int(DT.f32) });
  if (policy || !tc || !axes || roi || axes.length !== tc.length) {
    y = round(e('Resize', [y, ...ins.slice(1)], a), '');
  } else {
    const xs = ctx.shape(x);
    for (let i = axes.length - 1; i >= 0; i--) {
      if (sizes ? tc[i] === xs[axes[i]] : tc[i] === 1) continue;
      const t = sizes ? ctx.constI64(`${o}_size${i}`, [tc[i]]) : ctx.constRaw(`${o}_scale${i}`, DT.f32, [1], writeElems(DT.f32, [tc[i]]));
      y = round(e('Resize', [y, '', sizes ? '' : t, sizes ? t : ''], { ...a, axes: A.ints([axes[i]]) }), `${i}`);
    }
  }
  ctx.emit('Cast', [y], n.outputs, { to: A.int(DT.u8) });
}

export const RESIZE_OPS = {
  Resize: {
    attrs: RESIZE_ATTRS,
    norm(ctx, n) {
      const legacy = ctx.opset < 11;
      const ins = legacy ? [n.inputs[0], '', n.inputs[1] ?? '', ''] : [0, 1, 2, 3].map((k) => n.inputs[k] ?? '');
      const a = resizeAttrs(n, legacy);
      if (!legacy && ins[2] && attr(n, 'keep_aspect_ratio_policy', 'stretch') !== 'stretch')
        throw new Unsupported(`scales with keep_aspect_ratio_policy '${attr(n, 'keep_aspect_ratio_policy')}' is not valid (the policy applies to sizes; onnx's shape inference refuses it)`);
      const mode = attr(n, 'mode', 'nearest');
      if (ctx.value(ins[0])?.dtype === DT.u8 && attr(n, 'antialias', 0) === 1 && mode !== 'nearest') {
        uint8Antialias(ctx, n, ins, a);
        return;
      }
      ctx.emit('Resize', ins, n.outputs, a);
    },
  },
  Upsample: {
    attrs: ['mode', 'scales', 'height_scale', 'width_scale'],
    norm(ctx, n) {
      if (n.attrs.height_scale || n.attrs.width_scale) throw new Unsupported(`the opset-1 attributes height_scale/width_scale are not supported`);
      let scales = n.inputs[1];
      if (ctx.opset < 9) {
        if (!n.attrs.scales) throw new Unsupported(`required attribute 'scales' is missing`);
        const s = attr(n, 'scales');
        scales = ctx.constRaw(`${n.outputs[0]}_scales`, DT.f32, [s.length], writeElems(DT.f32, s));
      }
      if (!scales) throw new Unsupported(`input 'scales' is missing`);
      ctx.emit('Resize', [n.inputs[0], '', scales, ''], n.outputs, resizeAttrs(n, true));
    },
  },
  GridSample: {
    attrs: ['mode', 'padding_mode', 'align_corners'],
    norm(ctx, n) {
      // opset 20 renames the modes linear / cubic (the same 2-D interpolations) and takes N-D inputs (refused: the kernel is 4-D)
      const v20 = ctx.opset >= 20;
      let mode = attr(n, 'mode', v20 ? 'linear' : 'bilinear');
      const pad = attr(n, 'padding_mode', 'zeros'), align = attr(n, 'align_corners', 0);
      const modes = v20 ? ['linear', 'nearest', 'cubic'] : ['bilinear', 'nearest', 'bicubic'];
      if (!modes.includes(mode)) throw new Unsupported(`mode '${mode}' is not valid at opset ${ctx.opset} (${modes.join(', ')})`);
      if (v20) mode = { linear: 'bilinear', cubic: 'bicubic' }[mode] ?? mode;
      const xr = ctx.shape(n.inputs[0])?.length;
      if (v20 && xr !== undefined && xr !== 4) throw new Unsupported(`GridSample-20 over a rank-${xr} input is not supported (4-D only)`);
      if (!['zeros', 'border', 'reflection'].includes(pad)) throw new Unsupported(`padding_mode '${pad}' is not valid (zeros, border, reflection)`);
      if (align !== 0 && align !== 1) throw new Unsupported(`align_corners must be 0 or 1, got ${align}`);
      ctx.emit('GridSample', n.inputs, n.outputs, { mode: A.string(mode), padding_mode: A.string(pad), align_corners: A.int(align) });
    },
  },
};
