// The detection ops: NonMaxSuppression (opsets 10, 11) and RoiAlign (10,
// 16). NonMaxSuppression's row count is known only once the selection has
// run, so it becomes the backend's holo.NonMaxSuppressionPadded (every
// possible row, the selected ones first, and their count) and a Slice to
// that count (kernels-wasm-simd/operators/nms.c).
import { A, attr, DT, Unsupported } from './ir.js';

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

export const DETECT_OPS = OPS;
