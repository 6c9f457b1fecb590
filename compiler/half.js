// The 16-bit floats the converter meets in models: IEEE float16 (binary16)
// and bfloat16 (the top half of a float32), as raw bits <-> numbers.
//
//   halfToFloat(bits), floatToHalf(x)      float16; x rounded once, to nearest even
//   bf16ToFloat(bits), floatToBf16(x)      bfloat16; likewise, NaN kept NaN (quiet)
//   widenBytes(dtype, bytes) -> bytes      a float16/bfloat16 tensor as float32 (exact)
//
// floatToHalf rounds the double it is given, not a float32 of it, so it is
// the kernel's f64 -> f16 Cast (one rounding); widening is exact both ways.
export const F16 = 10, BF16 = 16;

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);

export function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

export function floatToHalf(x) {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (Number.isNaN(x)) return 0x7e00;
  if (a >= 65520) return sign | 0x7c00; // 65520 = max half + half an ulp: ties go to even (inf)
  if (a < 2 ** -14) {
    // subnormal: a multiple of 2^-24, rounded to nearest even
    const q = a * 2 ** 24, f = Math.floor(q), r = q - f;
    return sign | (r > 0.5 || (r === 0.5 && f & 1) ? f + 1 : f);
  }
  const e = Math.floor(Math.log2(a));
  let E = e, m = a / 2 ** E;
  if (m >= 2) { E++; m /= 2; } else if (m < 1) { E--; m *= 2; } // log2's last-bit error
  const q = (m - 1) * 1024, f = Math.floor(q), r = q - f;
  let bits = ((E + 15) << 10) + f;
  if (r > 0.5 || (r === 0.5 && f & 1)) bits++; // a carry into the exponent is still right
  return sign | bits;
}

export function bf16ToFloat(b) {
  u32[0] = (b & 0xffff) << 16;
  return f32[0];
}

export function floatToBf16(x) {
  if (Number.isNaN(x)) return 0x7fc0;
  f32[0] = x;
  let u = u32[0];
  // a double rounds to f32 by round-to-odd first (inexact: the last bit set),
  // so that the rounding to bf16 below is the one correct rounding of x
  if (f32[0] !== x && !(u & 1)) u = Math.abs(f32[0]) < Math.abs(x) ? u + 1 : u - 1;
  if ((u & 0x7fffffff) >= 0x7f800000) return u >>> 16; // +-inf
  return ((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) & 0xffff;
}

/** A float16 or bfloat16 tensor's bytes as float32 bytes (every value exactly). */
export function widenBytes(dtype, bytes) {
  const n = bytes.byteLength >> 1;
  const src = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint8Array(4 * n), dst = new DataView(out.buffer);
  const conv = dtype === BF16 ? bf16ToFloat : halfToFloat;
  for (let i = 0; i < n; i++) dst.setFloat32(4 * i, conv(src.getUint16(2 * i, true)), true);
  return out;
}
