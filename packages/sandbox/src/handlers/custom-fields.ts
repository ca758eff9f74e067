// Custom contact fields. The contract's schemas enforce label and option-label rules; this module
// adds what a schema cannot say (x-svc-option-rules with schema_enforced: false): built-in keys,
// integration-managed fields, DROPDOWN-only options, unique labels, rename by key, key derivation.
import type { FieldError } from '@svc/spec-runtime';
import type { CustomFieldOption, CustomFieldRecord, TeamRecord } from '../store/model.js';
import { pageFromQuery, paginate } from '../support/pagination.js';
import { type Failure, fail, type Handler, invalid, ok } from './types.js';

/** The source of fields created through the service; any other source is a CRM integration. */
export const OWN_SOURCE = 'SVC';
const WRITABLE = new Set(['label', 'description', 'options']);

function teamNotFound(team: TeamRecord): Failure | null {
  return team.contact_model === 'V2'
    ? null
    : fail('TEAM_NOT_FOUND', 'No team found on the new contact model for this API key.');
}

function render(field: CustomFieldRecord) {
  return {
    key: field.key,
    label: field.label,
    type: field.type,
    ...(field.type === 'DROPDOWN' ? { options: field.options ?? [] } : {}),
    source: field.source,
    ...(field.description !== undefined ? { description: field.description } : {}),
  };
}

export const listCustomFields: Handler = ({ team, query }) => {
  const refusal = teamNotFound(team);
  if (refusal) return refusal;
  const { page, size } = pageFromQuery(query);
  return ok(paginate(team.custom_fields.filter((f) => !f.deleted).map(render), page, size));
};

/** A key derived from a label: lower-case ASCII letters, digits and underscores, unique among `taken`. */
export function deriveOptionKey(label: string, taken: ReadonlySet<string>): string {
  const base =
    label
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 64) || 'option';
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
  return key;
}

interface OptionInput {
  label: string;
  key?: string;
}

/** Applies the option rules; returns the new list or the failure to answer. */
function replaceOptions(
  current: readonly CustomFieldOption[],
  inputs: readonly OptionInput[],
): CustomFieldOption[] | Failure {
  const labels = new Map<string, number>();
  const keys = new Set<string>();
  for (const [index, input] of inputs.entries()) {
    const normalised = input.label.trim().toLowerCase();
    if (labels.has(normalised)) {
      return fail(
        'ATTRIBUTE_OPTION_INVALID',
        `Option labels must be non-blank, at most 255 characters and unique; ${JSON.stringify(input.label.trim())} appears twice (options[${labels.get(normalised)}] and options[${index}]).`,
        { param: 'options' },
      );
    }
    labels.set(normalised, index);
    if (input.key !== undefined) {
      if (keys.has(input.key))
        return fail('ATTRIBUTE_OPTION_INVALID', `Option key ${input.key} is sent twice; each option appears once.`, {
          param: 'options',
        });
      keys.add(input.key);
    }
  }
  const currentKeys = new Set(current.map((o) => o.key));
  // Keys that survive (sent with a matching key) are reserved first, so a new option's derived key
  // never takes the key of an option kept in the same list.
  const taken = new Set(
    inputs.filter((i) => i.key !== undefined && currentKeys.has(i.key)).map((i) => i.key as string),
  );
  return inputs.map((input) => {
    if (input.key !== undefined && currentKeys.has(input.key)) return { key: input.key, label: input.label.trim() };
    const key = deriveOptionKey(input.label, taken);
    taken.add(key);
    return { key, label: input.label.trim() };
  });
}

export const updateCustomField: Handler = ({ team, params, body }) => {
  const refusal = teamNotFound(team);
  if (refusal) return refusal;
  const key = params.key as string;
  if (team.built_in_fields.includes(key))
    return fail('ATTRIBUTE_BUILT_IN', `${key} is a built-in field and cannot be updated as a custom field.`, {
      param: 'key',
    });
  const field = team.custom_fields.find((f) => f.key === key && !f.deleted);
  if (!field) return fail('ATTRIBUTE_NOT_FOUND', `No custom field with key ${key}.`, { param: 'key' });
  if (field.source !== OWN_SOURCE)
    return fail(
      'ATTRIBUTE_MANAGED_BY_INTEGRATION',
      `Custom field ${key} is managed by a CRM integration (${field.source}) and is read-only.`,
      { param: 'key' },
    );

  // key and type cannot change; sending their current value is harmless, anything else is refused,
  // and so is any other field (never dropped silently).
  const errors: FieldError[] = [];
  for (const name of Object.keys(body)) {
    if (WRITABLE.has(name)) continue;
    if ((name === 'key' && body.key === field.key) || (name === 'type' && body.type === field.type)) continue;
    if (name === 'key' || name === 'type')
      errors.push({ field: name, code: 'INVALID_REQUEST', message: `${name} cannot be changed` });
    else
      errors.push({ field: name, code: 'UNKNOWN_FIELD', message: `${name} is not a field of a custom field update` });
  }
  if (errors.length > 0) return invalid(errors);

  let options = field.options;
  if (body.options !== undefined) {
    if (field.type !== 'DROPDOWN')
      return fail(
        'ATTRIBUTE_OPTIONS_NOT_SUPPORTED',
        `Field ${key} has type ${String(field.type)}; options are supported only for DROPDOWN fields.`,
        { param: 'options' },
      );
    const replaced = replaceOptions(field.options ?? [], body.options as OptionInput[]);
    if ('error' in replaced) return replaced;
    options = replaced;
  }
  if (typeof body.label === 'string') field.label = body.label.trim();
  if (typeof body.description === 'string') {
    // A blank description clears it.
    if (body.description.trim() === '') delete field.description;
    else field.description = body.description;
  }
  if (options !== undefined) field.options = options;
  return ok({ data: render(field) });
};
