/** ISO 8601 with a Z and whole seconds, like the API's examples (2026-03-02T09:30:00Z). */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
