// svc-phone-fields-e164: a schema property named contact_number, svc_number or number_to, or ending
// in _number or _phone (and a parameter with such a name, or one of `parameterNames`) uses the
// PhoneNumber schema. The document is resolved, so the check compares the E.164 pattern, not the
// $ref: the property's schema has that pattern directly, or is a oneOf/anyOf of such a schema and
// {type: "null"} (NullablePhoneNumber). A boolean property (a flag such as allow_duplicate_number)
// is not a phone number and is skipped.
import {
  childPath,
  houseRule,
  isObject,
  operations,
  parameters,
  typesOf,
  unwrapNullable,
  walkDocumentSchemas,
} from './lib/oas.js';

const strings = { type: 'array', items: { type: 'string' } };

export default houseRule(
  { pattern: { type: 'string' }, names: strings, suffixes: strings, parameterNames: strings },
  function svcPhoneFieldsE164(doc, options, context) {
    const pattern = options?.pattern ?? '^\\+[1-9][0-9]{1,14}$';
    const names = new Set(options?.names ?? ['contact_number', 'svc_number', 'number_to']);
    const suffixes = options?.suffixes ?? ['_number', '_phone'];
    const paramNames = new Set(options?.parameterNames ?? []);
    const isPhoneName = (n) => names.has(n) || suffixes.some((s) => n.endsWith(s));
    const isPhone = (s) => {
      const inner = unwrapNullable(s);
      return isObject(inner) && inner.pattern === pattern;
    };
    const isFlag = (s) => {
      const t = typesOf(unwrapNullable(s)).filter((x) => x !== 'null');
      return t.length > 0 && t.every((x) => x === 'boolean');
    };
    const results = [];

    walkDocumentSchemas(doc, (schema, path) => {
      if (!isObject(schema.properties)) return;
      for (const [name, prop] of Object.entries(schema.properties)) {
        if (!isPhoneName(name) || isPhone(prop) || isFlag(prop)) continue;
        results.push({
          message: `Property '${name}' is a phone number and must use PhoneNumber (E.164 pattern ${pattern}) or NullablePhoneNumber.`,
          path: childPath(context, [...path, 'properties'], name),
        });
      }
    });

    const seen = new WeakSet();
    const checkParam = (param, path) => {
      if (!isObject(param) || seen.has(param) || typeof param.name !== 'string') return;
      seen.add(param);
      if (!(isPhoneName(param.name) || paramNames.has(param.name))) return;
      const schema = param.schema ?? (isObject(param.content) ? Object.values(param.content)[0]?.schema : undefined);
      if (isPhone(schema) || isFlag(schema)) return;
      results.push({
        message: `Parameter '${param.name}' (${String(param.in)}) is a phone number and its schema must be PhoneNumber (E.164 pattern ${pattern}).`,
        path: isObject(param.schema) ? childPath(context, path, 'schema') : path,
      });
    };
    for (const o of operations(doc, { webhooks: true }))
      for (const { param, path } of parameters(o)) checkParam(param, path);
    const cps = doc?.components?.parameters;
    if (isObject(cps)) for (const [n, p] of Object.entries(cps)) checkParam(p, ['components', 'parameters', n]);
    return results;
  },
);
