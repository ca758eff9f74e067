// The sandbox's timestamps: every answer that stores a change and every exchange the request log
// keeps asks for one, and within a second they are all the same text, so the last is kept.
let lastSecond = Number.NaN;
let lastText = '';

/** ISO 8601 with a Z and whole seconds, like the API's examples (2026-03-02T09:30:00Z). */
export function isoTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastText;
}
