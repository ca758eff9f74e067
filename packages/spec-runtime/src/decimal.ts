// Query and path values are strings on the wire; the schema decides whether one is meant as a
// number. This reads a decimal number (`12`, `-1.5`, `.5`, `2e3`) with a pattern whose parts
// cannot overlap, so a hostile value costs time linear in its length (checked by recheck in the
// tests; a backtracking pattern here once cost 0.7 s for 16 000 digits followed by a letter).
export const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Whether `text` is a plain decimal number: optional sign, digits with an optional fraction, optional exponent. */
export function isDecimal(text: string): boolean {
  return DECIMAL.test(text);
}
