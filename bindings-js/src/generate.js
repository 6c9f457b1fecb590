// Session#generate: prefill, then sample up to maxTokens (or speculative
// decoding with a draft session), over the step API of generator.js.
import { HologramError } from './errors.js';
import { promptTokens } from './generator.js';
import { topCount } from './generator-draws.js';

const OPTIONS = new Set(['maxTokens', 'stopToken', 'seed', 'sampler', 'model', 'onToken', 'topLogprobs', 'promptCache', 'checkpoints', 'speculative']);

function checkOptions(opts, isSession) {
  for (const k of Object.keys(opts)) if (!OPTIONS.has(k)) throw new HologramError('ARG', `generate: unknown option '${k}'`);
  const maxTokens = opts.maxTokens ?? 16;
  if (!Number.isInteger(maxTokens) || maxTokens < 0) throw new HologramError('ARG', 'generate: maxTokens must be a non-negative integer');
  const sp = opts.speculative;
  if (sp !== undefined && sp !== null) {
    if (typeof sp !== 'object' || !isSession(sp.draft)) throw new HologramError('ARG', 'generate: speculative must be { draft: Session, k?, model? }');
    if (opts.topLogprobs) throw new HologramError('UNSUPPORTED', 'generate: topLogprobs is not reported by speculative decoding (the inspector does not run there)');
  }
  const topLogprobs = topCount(opts.topLogprobs ?? 0, 'generate: topLogprobs');
  return { maxTokens, stop: opts.stopToken ?? -1, sp, topLogprobs };
}

// onToken(token, i, { prob, logprob, rawLogprob, topk }): the draw's
// log-probabilities, recorded by the inspector (docs/generation.md).
function sampled(g, maxTokens, stop, opts, tokens) {
  for (let i = 0; i < maxTokens; i++) {
    const t = g.sample();
    if (t === stop) break;
    g.feed(t);
    tokens.push(t);
    if (opts.onToken) {
      const { prob, logprob, rawLogprob, topk } = g.logprobs();
      if (opts.onToken(t, i, { prob, logprob, rawLogprob, topk }) === false) break;
    }
  }
}

/**
 * generate() of `session` (handle h): { tokens, stats, speculative? }.
 * isSession(v): whether v is a Session (the speculative draft).
 */
export function generate(h, session, prompt, opts, isSession) {
  const toks = promptTokens(h, prompt, 'generate');
  const { maxTokens, stop, sp, topLogprobs } = checkOptions(opts, isSession);
  const { seed, sampler, model } = opts;
  const g = session.generator({ seed, sampler, model, logprobs: opts.onToken && !sp ? topLogprobs : undefined });
  let d = null;
  try {
    const pre = g.prefill(toks, { promptCache: opts.promptCache, checkpoints: opts.checkpoints });
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
