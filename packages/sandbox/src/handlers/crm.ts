// Deals and people. Their error codes and most of their shapes are not shown; the sandbox follows
// the contract's examples and answers what it cannot document with the API-wide codes.
import type { FieldError } from '@svc/spec-runtime';
import type { PersonRecord, TeamRecord } from '../store/model.js';
import { paginate } from '../support/pagination.js';
import { matchesAll, searchTerms } from '../support/text-search.js';
import { bodyPaging } from './items.js';
import { fail, type Handler, invalid, ok } from './types.js';

const E164 = /^\+[1-9][0-9]{1,14}$/;

export const getDeal: Handler = ({ team, params }) => {
  const deal = team.deals.find((d) => d.id === params.id);
  if (!deal) {
    // getDeal documents no 404 (its error codes are not shown): the API-wide code is the only
    // documented answer for an id that names nothing.
    return fail('ENDPOINT_NOT_FOUND', `No deal with id ${params.id}.`, { param: 'id' });
  }
  const person = team.people.find((p) => p.id === deal.person_id);
  const company = team.companies.find((c) => c.id === deal.company_id);
  // The description names the deal's fields twice (amount/closed_at and value/close_date/person);
  // the sandbox sends both namings, as the contract allows.
  return ok({
    data: {
      id: deal.id,
      name: deal.name,
      status: deal.status,
      amount: deal.amount,
      value: deal.amount,
      currency: deal.currency,
      closed_at: deal.closed_at,
      close_date: deal.closed_at,
      person: person ? { id: person.id, name: person.name, last_name: person.last_name } : null,
      company: company ? { id: company.id, name: company.name } : null,
      created_at: deal.created_at,
      updated_at: deal.updated_at,
    },
  });
};

function renderPerson(team: TeamRecord, person: PersonRecord) {
  const company = team.companies.find((c) => c.id === person.company_id);
  return {
    id: person.id,
    name: person.name,
    last_name: person.last_name,
    email: person.email,
    phone_numbers: person.phone_numbers,
    company: company ? { id: company.id, name: company.name } : null,
    custom_fields: person.custom_fields,
    created_at: person.created_at,
    updated_at: person.updated_at,
  };
}

export const searchPeople: Handler = ({ team, body }) => {
  const errors: FieldError[] = [];
  for (const name of Object.keys(body)) {
    if (!['query', 'page', 'size'].includes(name))
      errors.push({ field: name, code: 'UNKNOWN_FIELD', message: `${name} is not a field of a people search` });
  }
  const terms = typeof body.query === 'string' ? searchTerms(body.query) : null;
  if (body.query !== undefined) {
    if (typeof body.query !== 'string')
      errors.push({ field: 'query', code: 'INVALID_REQUEST', message: 'query must be a string' });
    else if (terms === null)
      errors.push({
        field: 'query',
        code: 'INVALID_SEARCH_QUERY',
        message: 'query needs at least one letter or digit; special characters are stripped',
      });
  }
  const paging = bodyPaging(body);
  if ('error' in paging) errors.push(...(paging.errors ?? []));
  if (errors.length > 0 || 'error' in paging) return invalid(errors);
  const people = team.people.filter((p) => {
    if (terms === null) return true;
    const company = team.companies.find((c) => c.id === p.company_id);
    return matchesAll(terms, [p.name, p.last_name, p.email, ...p.phone_numbers, company?.name]);
  });
  return ok(
    paginate(
      people.map((p) => renderPerson(team, p)),
      paging.page,
      paging.size,
    ),
  );
};

const nullableString = (value: unknown) => value === null || typeof value === 'string';

export const updatePerson: Handler = ({ team, params, body, now }) => {
  const person = team.people.find((p) => p.id === params.id);
  if (!person) return fail('PERSON_NOT_FOUND', `No person with id ${params.id}.`, { param: 'id' });
  // The body is not shown: the sandbox merges the fields of its person view that are writable and
  // refuses anything else, so a typo is never dropped silently.
  const errors: FieldError[] = [];
  const fieldKeys = new Set(team.custom_fields.filter((f) => !f.deleted).map((f) => f.key));
  for (const [name, value] of Object.entries(body)) {
    if (name === 'name' || name === 'last_name' || name === 'email') {
      if (!nullableString(value))
        errors.push({ field: name, code: 'INVALID_REQUEST', message: `${name} must be a string or null` });
    } else if (name === 'phone_numbers') {
      if (!Array.isArray(value) || value.some((n) => typeof n !== 'string'))
        errors.push({ field: name, code: 'INVALID_REQUEST', message: 'phone_numbers must be an array of strings' });
      else
        for (const [i, n] of (value as string[]).entries())
          if (!E164.test(n))
            errors.push({
              field: `phone_numbers[${i}]`,
              code: 'INVALID_PHONE_FORMAT',
              message: `phone_numbers[${i}] must be E.164`,
            });
    } else if (name === 'company_id') {
      if (value !== null && !team.companies.some((c) => c.id === value))
        errors.push({
          field: name,
          code: 'INVALID_REQUEST',
          message: "company_id must be the id of one of the team's companies, or null",
        });
    } else if (name === 'custom_fields') {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        errors.push({ field: name, code: 'INVALID_REQUEST', message: 'custom_fields must be an object' });
      else {
        for (const [fieldKey, fieldValue] of Object.entries(value)) {
          if (!fieldKeys.has(fieldKey))
            errors.push({
              field: `custom_fields.${fieldKey}`,
              code: 'INVALID_REQUEST',
              message: `${fieldKey} is not a custom field of the team`,
            });
          else if (fieldValue !== null && !['string', 'number', 'boolean'].includes(typeof fieldValue))
            errors.push({
              field: `custom_fields.${fieldKey}`,
              code: 'INVALID_REQUEST',
              message: 'a custom field value is a string, number, boolean or null',
            });
        }
      }
    } else {
      errors.push({ field: name, code: 'UNKNOWN_FIELD', message: `${name} is not a field of a person` });
    }
  }
  if (errors.length > 0) return invalid(errors);
  for (const name of ['name', 'last_name', 'email', 'company_id'] as const)
    if (name in body) person[name] = body[name] as string | null;
  if ('phone_numbers' in body) person.phone_numbers = [...(body.phone_numbers as string[])];
  if ('custom_fields' in body) {
    for (const [fieldKey, fieldValue] of Object.entries(
      body.custom_fields as Record<string, string | number | boolean | null>,
    )) {
      if (fieldValue === null) delete person.custom_fields[fieldKey];
      else person.custom_fields[fieldKey] = fieldValue;
    }
  }
  person.updated_at = now();
  return ok({ data: renderPerson(team, person) });
};
