// Short phrasings shared by the findings' sentences: type sets, enum values, bounds.

/** "string | null", or "any type" for an unrestricted view. @param {Set<string> | null} types */
export function typesText(types) {
  if (types === null) return 'any type';
  if (types.size === 0) return 'nothing';
  return [...types].sort().join(' | ');
}

/** Up to eight values as JSON, then a count of the rest. @param {unknown[]} values */
export function valuesText(values) {
  const shown = values.slice(0, 8).map((value) => JSON.stringify(value));
  return values.length > 8 ? `${shown.join(', ')} and ${values.length - 8} more` : shown.join(', ');
}

/** "≥ 1", "> 0", "≤ 100", "< 5". @param {{ value: number, exclusive: boolean }} bound @param {'lower' | 'upper'} end */
export function boundText(bound, end) {
  const op = end === 'lower' ? (bound.exclusive ? '>' : '≥') : bound.exclusive ? '<' : '≤';
  return `${op} ${bound.value}`;
}

/** "1 value" / "2 values". @param {number} n @param {string} word */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * What a field is called in a sentence: a "request field" or "response field", except in a
 * webhook, where the service sends the payload and the integrator sends the reply.
 * @param {string[]} location
 * @param {'request' | 'response'} side
 */
export function fieldNoun(location, side) {
  if (location[0]?.startsWith('webhook ')) return side === 'response' ? 'webhook payload field' : 'webhook reply field';
  return `${side} field`;
}
