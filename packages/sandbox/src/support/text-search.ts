// The search rules of the description: special characters are stripped, the remaining words are
// combined with AND and each word is matched as a prefix (case-insensitively) of some word of the
// searched text. Stripping applies to the text too, so "follow-up" finds "follow-up".

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((w) => w.length > 0);
}

/** The query's words, or null when nothing searchable is left (INVALID_SEARCH_QUERY). */
export function searchTerms(query: string): string[] | null {
  const terms = words(query);
  return terms.length > 0 ? terms : null;
}

export function matchesAll(terms: readonly string[], texts: ReadonlyArray<string | null | undefined>): boolean {
  const haystack = texts.flatMap((t) => (t ? words(t) : []));
  return terms.every((term) => haystack.some((word) => word.startsWith(term)));
}
