// The one rule every adapter shares: only a strict κ-label becomes a key or a path.
export const LABEL_RE = /^sha256:[0-9a-f]{64}$/;

export function isLabel(label) {
  return typeof label === 'string' && LABEL_RE.test(label);
}

/** The C FileWarmStore's file name for a label: sha256-<64 hex>.hws. */
export function fileName(label) {
  return `sha256-${label.slice(7)}.hws`;
}

export function checkLabel(label) {
  if (!isLabel(label)) throw new TypeError(`warm store: not a label (sha256:<64 lowercase hex>): ${String(label).slice(0, 80)}`);
}

export function checkBytes(bytes) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('warm store: put needs a Uint8Array');
}
