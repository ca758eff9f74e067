// Recognising ids in answers whose entry shape the contract does not specify: by the pattern of
// the schema the value will be used for (a `usr-` id, an E.164 number), never by an invented name.
import { isObject } from '@svc/spec-runtime';
import type { Session } from '../session.js';

export const unique = <T>(values: T[]): T[] => [...new Set(values)];

export function patternOf(session: Session, schemaName: string): RegExp {
  const schema = session.spec.schema(schemaName);
  if (!schema || typeof schema.pattern !== 'string')
    throw new Error(`components.schemas.${schemaName} has no pattern.`);
  return new RegExp(schema.pattern, 'u');
}

/** String values of the top level of each entry that match a pattern, preferring a field by name. */
export function valuesMatching(entries: unknown[], pattern: RegExp, prefer: string): string[] {
  return entries.filter(isObject).flatMap((entry) => {
    const preferred = entry[prefer];
    const value =
      typeof preferred === 'string' && pattern.test(preferred)
        ? preferred
        : Object.values(entry).find((v): v is string => typeof v === 'string' && pattern.test(v));
    return value === undefined ? [] : [value];
  });
}
