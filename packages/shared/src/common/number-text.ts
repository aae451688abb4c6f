/**
 * How a number is typed into any field of the product: digits with at most one dot ("25", "0.5", ".5", "5.").
 * No sign, no exponent, no grouping, no spaces inside. A form never rewrites what was typed ("2.5" into 25,
 * "-5" into 5, "1e12" into 112): text outside this shape is refused with the field's own message, and the
 * route's schema refuses the same text, so the screen and the API agree.
 */
const PLAIN_DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;
const PLAIN_INTEGER = /^\d+$/;

/** True when `text` (trimmed) is a plain decimal, or a plain whole number with `integer`. */
export function isPlainNumberText(text: string, options: { integer?: boolean } = {}): boolean {
  return (options.integer ? PLAIN_INTEGER : PLAIN_DECIMAL).test(text.trim());
}

/**
 * Reads a numeric field as a form or a JSON body sends it: `undefined` when blank (absent, null or only
 * spaces), `null` when it is not a number in the typed shape above (a JSON number must be finite), else
 * the number. Range checks belong to each field; this rule only decides what counts as a number.
 */
export function readNumberText(
  value: unknown,
  options: { integer?: boolean } = {},
): number | null | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return options.integer && !Number.isInteger(value) ? null : value;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return undefined;
  if (!isPlainNumberText(text, options)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}
