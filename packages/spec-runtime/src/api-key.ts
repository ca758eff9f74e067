// The key of an `Authorization: Api-Key <key>` header, read the same way by every server of this
// repository. The pattern is linear (checked by recheck in the tests): its parts cannot overlap.
export const API_KEY_SCHEME = /^Api-Key[ \t]+(\S+)[ \t]*$/i;

/** The key token of the header; undefined when it is missing or malformed. */
export function apiKeyOf(header: string | null | undefined): string | undefined {
  return header === null || header === undefined ? undefined : API_KEY_SCHEME.exec(header)?.[1];
}
