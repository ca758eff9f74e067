// Which headers a proxy must not forward (RFC 9110 7.6.1): Connection and every header it names,
// and the headers that only ever concern one connection. Headers are read as node:http gives them
// raw (name, value, name, value, …), so repeated ones (Set-Cookie) stay apart and in order.

/** Always hop-by-hop, whatever Connection says. */
const ALWAYS = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
];

/** The lower-case names not to forward from these raw headers. */
export function hopByHopNames(rawHeaders: readonly string[]): Set<string> {
  const names = new Set(ALWAYS);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() !== 'connection') continue;
    for (const token of (rawHeaders[i + 1] ?? '').split(',')) {
      const name = token.trim().toLowerCase();
      if (name !== '') names.add(name);
    }
  }
  return names;
}

/**
 * The end-to-end headers, grouped by name in their first spelling, each with its values in order
 * (node:http writes an array value as one header line per value). `skip` adds names the caller
 * sets itself (Host).
 */
export function endToEnd(rawHeaders: readonly string[], skip: readonly string[] = []): Record<string, string[]> {
  const drop = hopByHopNames(rawHeaders);
  for (const name of skip) drop.add(name);
  const spelling = new Map<string, string>();
  // No prototype: a header named __proto__ or constructor is a header like any other.
  const out: Record<string, string[]> = Object.create(null);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const lower = name.toLowerCase();
    if (drop.has(lower)) continue;
    const first = spelling.get(lower) ?? name;
    spelling.set(lower, first);
    const values = out[first] ?? [];
    values.push(rawHeaders[i + 1] as string);
    out[first] = values;
  }
  return out;
}

/** The raw headers as a web Headers (repeated ones appended; Set-Cookie stays apart in getSetCookie()). */
export function toHeaders(rawHeaders: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    try {
      headers.append(rawHeaders[i] as string, rawHeaders[i + 1] as string);
    } catch {
      // A value Headers refuses (a byte it does not allow) is relayed, just not checked.
    }
  }
  return headers;
}
