// The detection ops: NonMaxSuppression (opsets 10, 11) and RoiAlign (10,
// 16). NonMaxSuppression's row count is known only once the selection has
// run, so it becomes the backend's holo.NonMaxSuppressionPadded (every
// possible row, the selected ones first, and their count) and a Slice to
// that count (kernels-wasm-simd/operators/nms.c).
import { A, attr, DT, Unsupported, writeElems } from './ir.js';

const OPS = Object.create(null);

OPS.NonMaxSuppression = {
  attrs: ['center_point_box'],
  norm(ctx, n) {
    const cpb = attr(n, 'center_point_box', 0);
    if (cpb !== 0 && cpb !== 1) throw new Unsupported(`center_point_box must be 0 or 1, got ${cpb}`);
    const want = [DT.f32, DT.f32, DT.i64, DT.f32, DT.f32];
    const ins = n.inputs.slice(0, 5);
    ins.forEach((v, i) => {
      if (v && ctx.value(v).dtype !== want[i]) throw new Unsupported(`input ${i} must be ${i === 2 ? 'int64' : 'float32'}`);
    });
    while (ins.length > 2 && !ins[ins.length - 1]) ins.pop();
    const o = n.outputs[0];
    const [rows, count] = ctx.emit('holo.NonMaxSuppressionPadded', ins, [ctx.tmp(`${o}_rows`), ctx.tmp(`${o}_count`)], { center_point_box: A.int(cpb) });
    ctx.emit('Slice', [rows, ctx.constI64(`${o}_zero`, [0]), count, ctx.constI64(`${o}_axis`, [0])], n.outputs, {});
  },
};

// RoiAlign: opset 10 has no coordinate_transformation_mode and behaves as
// 'output_half_pixel'; opset 16 adds it with default 'half_pixel'.
OPS.RoiAlign = {
  attrs: ['coordinate_transformation_mode', 'mode', 'output_height', 'output_width', 'sampling_ratio', 'spatial_scale'],
  norm(ctx, n) {
    if (ctx.opset < 16 && n.attrs.coordinate_transformation_mode !== undefined) throw new Unsupported(`attribute 'coordinate_transformation_mode' is not part of opset ${ctx.opset}`);
    const ctm = ctx.opset >= 16 ? attr(n, 'coordinate_transformation_mode', 'half_pixel') : 'output_half_pixel';
    if (ctm !== 'half_pixel' && ctm !== 'output_half_pixel') throw new Unsupported(`coordinate_transformation_mode '${ctm}' is not defined`);
    const mode = attr(n, 'mode', 'avg');
    if (mode !== 'avg' && mode !== 'max') throw new Unsupported(`mode '${mode}' is not defined`);
    if (ctx.value(n.inputs[0]).dtype !== DT.f32 || ctx.value(n.inputs[1]).dtype !== DT.f32) throw new Unsupported('X and rois must be float32 (float64 and float16 are not implemented)');
    if (ctx.value(n.inputs[2]).dtype !== DT.i64) throw new Unsupported('batch_indices must be int64');
    ctx.emit('RoiAlign', n.inputs.slice(0, 3), n.outputs, {
      coordinate_transformation_mode: A.string(ctm), mode: A.string(mode),
      output_height: A.int(attr(n, 'output_height', 1)), output_width: A.int(attr(n, 'output_width', 1)),
      sampling_ratio: A.int(attr(n, 'sampling_ratio', 0)), spatial_scale: A.float(attr(n, 'spatial_scale', 1.0)),
    });
  },
};

// MaxRoiPool (opset 1): onnxruntime's roi_pool.cc geometry as ops on the
// rois (small: [R, 5], [R, ph], [R, pw]), then the backend's
// holo.RoiPoolMax for the window maxima (operators/roipool.c). Per roi:
// corners round(v * spatial_scale) half away from zero (std::round: |v| -
// floor(|v|) >= 0.5 rounds up, exact in float), size max(end - start + 1,
// 1), bin = size / pooled (float division), bin k = [floor(k * bin),
// ceil((k + 1) * bin)) + start clipped to [0, H] ([0, W]). Whole numbers
// below 2^24 are exact in float, and a larger sum lies beyond the clip
// either way, so these are onnxruntime's integers. The batch index is
// truncated (Cast, as static_cast<int>); a roi with a value that is not
// finite or beyond 2^24, where onnxruntime's int conversion is undefined,
// gets batch index -1, which the kernel refuses.
OPS.MaxRoiPool = {
  attrs: ['pooled_shape', 'spatial_scale'],
  norm(ctx, n) {
    const ps = attr(n, 'pooled_shape', null);
    if (!ps) throw new Unsupported(`MaxRoiPool: required attribute 'pooled_shape' is missing`);
    if (ps.length !== 2 || !ps.every((d) => Number.isInteger(d) && d >= 1 && d <= 2 ** 24)) throw new Unsupported(`MaxRoiPool: pooled_shape ${JSON.stringify(ps)} must be two values in [1, 2^24]`);
    const [x, rois] = n.inputs, o = n.outputs[0];
    for (const [v, what] of [[x, 'X'], [rois, 'rois']]) if (ctx.value(v).dtype !== DT.f32) throw new Unsupported(`MaxRoiPool: ${what} must be float32 (float64 and float16 are not implemented)`);
    const xs = ctx.shape(x);
    if (!xs || xs.length !== 4 || typeof xs[2] !== 'number' || typeof xs[3] !== 'number') throw new Unsupported('MaxRoiPool: X must be [N, C, H, W] with H and W known');
    const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
    const I = (h, arr) => ctx.constI64(`${o}_${h}`, arr);
    const F = (h, v) => ctx.constScalar(`${o}_${h}`, DT.f32, v);
    const cols = (t, a, b) => e('Slice', [t, I(`s${a}`, [a]), I(`e${b}`, [b]), I('ax1', [1])]);
    const v = e('Mul', [cols(rois, 1, 5), F('scale', attr(n, 'spatial_scale', 1.0))]); // [R, 4]
    const av = e('Abs', [v]), fl = e('Floor', [av]);
    const up = e('Cast', [e('GreaterOrEqual', [e('Sub', [av, fl]), F('half', 0.5)])], { to: A.int(DT.f32) });
    const r = e('Mul', [e('Sign', [v]), e('Add', [fl, up])]); // (x1, y1, x2, y2) rounded
    const far = e('Not', [e('Less', [e('Abs', [e('Concat', [cols(rois, 0, 1), v], { axis: A.int(1) })]), F('lim', 2 ** 24)])]);
    const bad = e('ReduceMax', [e('Cast', [far], { to: A.int(DT.f32) }), I('axes', [1])], { keepdims: A.int(0), noop_with_empty_axes: A.int(0) });
    const b0 = e('Cast', [e('Reshape', [cols(rois, 0, 1), I('flat', [-1])], { allowzero: A.int(0) })], { to: A.int(DT.i64) });
    const batch = e('Where', [e('Greater', [bad, F('zero', 0)]), ctx.constScalar(`${o}_m1`, DT.i64, -1), b0]);
    const one = F('one', 1);
    // the windows of one axis: [R, pooled, 2] int64 (start column s of r, end column s + 2, the dim lim)
    const windows = (s, pooled, lim, tag) => {
      const start = cols(r, s, s + 1);
      const size = e('Max', [e('Add', [e('Sub', [cols(r, s + 2, s + 3), start]), one]), one]);
      const bin = e('Div', [size, F(`p${tag}`, pooled)]);
      const k = (h, from) => ctx.constRaw(`${o}_${h}`, DT.f32, [1, pooled], writeElems(DT.f32, Array.from({ length: pooled }, (_, i) => i + from)));
      const clip = (t) => e('Cast', [e('Unsqueeze', [e('Clip', [e('Add', [t, start]), F(`z${tag}`, 0), F(`l${tag}`, lim)]), I('u2', [2])])], { to: A.int(DT.i64) });
      return e('Concat', [clip(e('Floor', [e('Mul', [bin, k(`k${tag}`, 0)])])), clip(e('Ceil', [e('Mul', [bin, k(`k1${tag}`, 1)])]))], { axis: A.int(2) });
    };
    ctx.emit('holo.RoiPoolMax', [x, batch, windows(1, ps[0], xs[2], 'h'), windows(0, ps[1], xs[3], 'w')], n.outputs, {});
  },
};

export const DETECT_OPS = OPS;
