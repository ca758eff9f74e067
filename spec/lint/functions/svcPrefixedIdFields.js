// svc-prefixed-id-fields. What it covers (data-driven, options in the ruleset):
//   1. every schema carrying x-svc-id-prefix (a prefix such as 'usr-', or a list of them) has a
//      `pattern` that starts with '^' and then requires one of the prefixes: it accepts
//      '<prefix>4TgB81cd' for each prefix and rejects the same id with no or another prefix; or,
//      instead of a pattern, an anyOf/oneOf whose branches carry exactly those prefixes (a type and
//      pattern beside the anyOf would break several generators);
//   2. the properties named in `properties` (user_id) and, inside a schema with a given title, the
//      properties named in `titledProperties` (NoteUser.id) resolve to a schema whose
//      x-svc-id-prefix is the given prefix (directly, or as the non-null branch of a nullable oneOf/anyOf).
// It does not guess prefixes of other *_id fields: add them to the options when the description
// states them.
import { childPath, houseRule, isObject, unwrapNullable, walkDocumentSchemas } from './lib/oas.js';

const prefixMap = { type: 'object', additionalProperties: { type: 'string' } };
const SAMPLE = '4TgB81cd';

/** Whether the schema's anyOf/oneOf branches carry, between them, exactly the given prefixes. */
function branchesCover(schema, prefixes, prefixesOf) {
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (!branches) return false;
  const found = branches.map(prefixesOf);
  if (found.some((p) => p === null)) return false;
  const covered = new Set(found.flat());
  return covered.size === prefixes.length && prefixes.every((p) => covered.has(p));
}

function compile(pattern) {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return null;
    }
  }
}

export default houseRule(
  {
    keyword: { type: 'string' },
    properties: prefixMap,
    titledProperties: { type: 'object', additionalProperties: prefixMap },
  },
  function svcPrefixedIdFields(doc, options, context) {
    const keyword = options?.keyword ?? 'x-svc-id-prefix';
    const byName = options?.properties ?? { user_id: 'usr-' };
    const byTitle = options?.titledProperties ?? { NoteUser: { id: 'usr-' } };
    const results = [];
    const prefixesOf = (s) => {
      const p = isObject(s) ? s[keyword] : undefined;
      return typeof p === 'string' ? [p] : Array.isArray(p) && p.every((x) => typeof x === 'string') ? p : null;
    };

    walkDocumentSchemas(doc, (schema, path) => {
      if (keyword in schema) {
        const prefixes = prefixesOf(schema);
        const label = schema.title ?? path[path.length - 1];
        if (prefixes === null || prefixes.length === 0 || prefixes.some((p) => p === '')) {
          results.push({
            message: `${keyword} of schema '${String(label)}' must be a non-empty prefix or list of prefixes.`,
            path: [...path, keyword],
          });
        } else if (typeof schema.pattern !== 'string' && branchesCover(schema, prefixes, prefixesOf)) {
          // an anyOf/oneOf of prefixed ids (each branch checked on its own) covering every prefix
        } else if (typeof schema.pattern !== 'string') {
          results.push({
            message: `Schema '${String(label)}' has ${keyword} ${prefixes.join(', ')} but no pattern.`,
            path,
          });
        } else {
          const re = compile(schema.pattern);
          const bad =
            re === null ||
            !schema.pattern.startsWith('^') ||
            prefixes.some((p) => !re.test(`${p}${SAMPLE}`)) ||
            re.test(SAMPLE) ||
            re.test(`zzz-${SAMPLE}`);
          if (bad) {
            results.push({
              message: `Pattern '${schema.pattern}' of schema '${String(label)}' must start with '^' followed by its prefix(es) ${prefixes.join(', ')}.`,
              path: [...path, 'pattern'],
            });
          }
        }
      }
      if (!isObject(schema.properties)) return;
      const wanted = {
        ...byName,
        ...(typeof schema.title === 'string' && isObject(byTitle[schema.title]) ? byTitle[schema.title] : {}),
      };
      for (const [name, prefix] of Object.entries(wanted)) {
        if (!(name in schema.properties)) continue;
        const prefixes = prefixesOf(unwrapNullable(schema.properties[name]));
        if (prefixes !== null && prefixes.length === 1 && prefixes[0] === prefix) continue;
        const where = typeof schema.title === 'string' ? ` of ${schema.title}` : '';
        results.push({
          message: `Property '${name}'${where} must be an id with prefix '${prefix}' (a schema with ${keyword}: ${prefix}, e.g. UserId).`,
          path: childPath(context, [...path, 'properties'], name),
        });
      }
    });
    return results;
  },
);
