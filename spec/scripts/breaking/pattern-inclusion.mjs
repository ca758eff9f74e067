// Regular expressions cannot be compared for inclusion in general, but one common shape can: an
// unanchored single character class such as '[\p{L}\p{N}]' ("contains at least one such
// character"). A string matches it exactly when one of its characters is in the class, so pattern
// A accepts no string B refuses when every code point in A's class is in B's class, which is
// checked over all of Unicode. Anything else is presumed narrower by the caller.
const SINGLE_CLASS = /^\[(?:[^\]\\]|\\.)+\]$/;
const LAST_CODE_POINT = 0x10ffff;

/** True when every string matching `wider`'s predecessor `narrower` also matches `wider`; null when unknown. */
export function classPatternIncludes(narrower, wider) {
  if (!SINGLE_CLASS.test(narrower) || !SINGLE_CLASS.test(wider)) return null;
  let before;
  let after;
  try {
    before = new RegExp(`^${narrower}$`, 'u');
    after = new RegExp(`^${wider}$`, 'u');
  } catch {
    return null;
  }
  for (let code = 0; code <= LAST_CODE_POINT; code += 1) {
    if (code >= 0xd800 && code <= 0xdfff) continue; // lone surrogates are not characters
    const character = String.fromCodePoint(code);
    if (before.test(character) && !after.test(character)) return false;
  }
  return true;
}
