// TokenDomain: what each token of a vocabulary stands for as bytes, so that
// constraints (sampler.regex) and decoding work over multi-byte tokens (BPE,
// SentencePiece pieces), not one byte per token. The table is vocab + 1
// ascending u32 offsets (off[0] = 0), then the
// bytes; a token of no bytes is a special token (never a character).
import { HologramError } from './errors.js';

const utf8 = new TextEncoder();

export class TokenDomain {
  /** tokens: one entry per token id, a string (UTF-8 encoded) or a Uint8Array of its bytes. */
  constructor(tokens) {
    if (!Array.isArray(tokens) || tokens.length === 0) throw new HologramError('ARG', 'TokenDomain: give a non-empty array of token strings or byte arrays');
    const parts = tokens.map((t, i) => {
      if (typeof t === 'string') return utf8.encode(t);
      if (t instanceof Uint8Array) return t;
      throw new HologramError('ARG', `TokenDomain: token ${i} is neither a string nor a Uint8Array`);
    });
    this.offsets = new Uint32Array(parts.length + 1);
    let n = 0;
    parts.forEach((p, i) => { n += p.length; this.offsets[i + 1] = n; });
    if (n > 0xffffffff) throw new HologramError('ARG', 'TokenDomain: more than 4 GiB of token bytes');
    this.bytes = new Uint8Array(n);
    parts.forEach((p, i) => this.bytes.set(p, this.offsets[i]));
    Object.freeze(this);
  }

  get vocab() { return this.offsets.length - 1; }

  /** The bytes token t stands for (a view). */
  bytesOf(t) {
    if (!Number.isInteger(t) || t < 0 || t >= this.vocab) throw new HologramError('ARG', `TokenDomain: token ${t} is not below ${this.vocab}`);
    return this.bytes.subarray(this.offsets[t], this.offsets[t + 1]);
  }

  /** The text of a token sequence (UTF-8; a sequence cut inside a character decodes with U+FFFD). */
  decode(tokens) {
    const parts = tokens.map((t) => this.bytesOf(t));
    const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
    let o = 0;
    for (const p of parts) { out.set(p, o); o += p.length; }
    return new TextDecoder().decode(out);
  }
}
