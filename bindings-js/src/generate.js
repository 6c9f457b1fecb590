// Session#generate: prefill, then sample up to maxTokens (or speculative
// decoding with a draft session), over the step API of generator.js.
import { HologramError } from './errors.js';
import { promptTokens } from './generator.js';

const OPTIONS = new Set(['maxTokens', 'stopToken', 'seed', 'sampler', 'model', 'onToken', 'promptCache', 'speculative']);

function checkOptions(opts, isSession) {
  for (const k of Object.keys(opts)) if (!OPTIONS.has(k)) throw new HologramError('ARG', `generate: unknown option '${k}'`);
  const maxTokens = opts.maxTokens ?? 16;
  if (!Number.isInteger(maxTokens) || maxTokens < 0) throw new HologramError('ARG', 'generate: maxTokens must be a non-negative integer');
  const sp = opts.speculative;
  if (sp !== undefined && sp !== null) {
    if (typeof sp !== 'object' || !isSession(sp.draft)) throw new HologramError('ARG', 'generate: speculative must be { draft: Session, k?, model? }');
  }
  return { maxTokens, stop: opts.stopToken ?? -1, sp };
}

function sampled(g, maxTokens, stop, opts, tokens) {
  for (let i = 0; i < maxTokens; i++) {
    const t = g.sample();
    if (t === stop) break;
    g.feed(t);
    tokens.push(t);
    if (opts.onToken && opts.onToken(t, i) === false) break;
  }
}

/**
 * generate() of `session` (handle h): { tokens, stats, speculative? }.
 * isSession(v): whether v is a Session (the speculative draft).
 */
export function generate(h, session, prompt, opts, isSession) {
  const toks = promptTokens(h, prompt, 'generate');
  const { maxTokens, stop, sp } = checkOptions(opts, isSession);
  const g = session.generator(opts);
  let d = null;
  try {
    const pre = g.prefill(toks, { promptCache: opts.promptCache ?? false });
    const tokens = [];
    let spec;
    if (sp) {
      d = sp.draft.generator({ sampler: { kind: 'greedy' }, model: sp.model ?? opts.model });
      d.prefill(toks);
      spec = g.speculate(d, { k: sp.k, maxTokens, stopToken: stop });
      for (let i = 0; i < spec.tokens.length; i++) {
        tokens.push(spec.tokens[i]);
        if (opts.onToken && opts.onToken(spec.tokens[i], i) === false) break;
      }
      delete spec.tokens;
    } else {
      sampled(g, maxTokens, stop, opts, tokens);
    }
    const stats = { ...g.stats, prefillTokens: toks.length, prefillReused: pre.reused, prefillComputed: pre.computed };
    return spec ? { tokens, stats, speculative: spec } : { tokens, stats };
  } finally {
    g.free();
    if (d) d.free();
  }
}
