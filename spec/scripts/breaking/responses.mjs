// Rules for the responses of an operation as a whole: which statuses are documented, their
// content types and their headers. Bodies and header values are compared with the response rules
// (response-schemas.mjs), or the request rules for a webhook (the service reads the reply).
//
// - A removed status breaks clients that handle it (typed clients key success bodies by status).
//   A status that documents error codes is left to error-codes.mjs, which names each code that
//   went away or moved, rather than reporting the status once more. A status still covered by a
//   range ("4XX") is not removed; `default` covers nothing here, because it says nothing about
//   the body a client was promised for that status. A range replaced by explicit statuses inside
//   it ("2XX" by 200 and 201, the readings an ambiguous description allows) is not removed either:
//   each explicit status is compared with the range's response, except that a 204 has no body.
// - A removed content type or response header breaks clients that read it. (A webhook's reply
//   headers are read by the service, not by clients, and are not compared.)
import { documentedCodes } from './error-codes.mjs';
import { walkSchemas } from './schema-walk.mjs';

/**
 * @typedef {import('./rules.mjs').Context} Context
 * @typedef {import('./document.mjs').Operation} Operation
 * @typedef {import('./schema-walk.mjs').Side} Side
 * @typedef {any} Json
 */

/** @param {Json} responses @param {string} status */
const responseFor = (responses, status) =>
  responses?.[status] ?? (/^\d{3}$/.test(status) ? responses?.[`${status[0]}XX`] : undefined);

/** A header's schema, given directly or under its single `content` entry. @param {Json} header */
const headerSchema = (header) => header?.schema ?? Object.values(header?.content ?? {})[0]?.schema ?? true;

/** Headers by lower-case name; Content-Type is described by `content`, not as a header. @param {Json} headers */
function headersByName(headers) {
  return new Map(
    Object.entries(headers ?? {})
      .filter(([name]) => name.toLowerCase() !== 'content-type')
      .map(([name, header]) => [name.toLowerCase(), [name, header]]),
  );
}

/**
 * @param {Context} ctx
 * @param {Operation} base
 * @param {Operation} head
 * @param {Side} side the rules for what the response's reader receives
 */
export function checkResponses(ctx, base, head, side) {
  for (const [status, rawBase] of Object.entries(base.op.responses ?? {})) {
    const location = [head.key, `response ${status}`];
    const rawHead = responseFor(head.op.responses, status);
    const split = rawHead ? [] : explicitInRange(head.op.responses, status);
    if (split.length > 0) {
      for (const [explicit, rawExplicit] of split) {
        compareResponse(
          ctx,
          base,
          side,
          status,
          rawBase,
          rawExplicit,
          [head.key, `response ${status} (now ${explicit})`],
          explicit === '204',
        );
      }
      continue;
    }
    if (!rawHead) {
      if (base.outbound || documentedCodes(ctx.base, rawBase).size === 0) {
        ctx.report(
          'response-status-removed',
          location,
          `The ${status} response is no longer documented: clients that handle it are left with an undocumented status.`,
        );
      }
      continue;
    }
    compareResponse(ctx, base, side, status, rawBase, rawHead, location, false);
  }
}

/** The explicit statuses ('200', '201') a head documents inside a range key ('2XX') of the base. */
function explicitInRange(responses, range) {
  if (!/^[1-5]XX$/.test(range)) return [];
  return Object.entries(responses ?? {}).filter(([status]) => /^\d{3}$/.test(status) && status[0] === range[0]);
}

/**
 * One base response against its head counterpart: content types, bodies, headers.
 * @param {Context} ctx @param {Operation} base @param {Side} side @param {string} status
 * @param {Json} rawBase @param {Json} rawHead @param {string[]} location @param {boolean} noBody
 */
function compareResponse(ctx, base, side, status, rawBase, rawHead, location, noBody) {
  {
    const before = ctx.base.resolve(rawBase) ?? {};
    const after = ctx.head.resolve(rawHead) ?? {};

    for (const [mediaType, media] of Object.entries(noBody ? {} : (before.content ?? {}))) {
      const headMedia = after.content?.[mediaType];
      const at = mediaType === 'application/json' ? location : [...location, mediaType];
      if (!headMedia) {
        ctx.report(
          'response-media-type-removed',
          at,
          `The ${status} response no longer comes as ${mediaType}: clients that parse it get another content type or none.`,
        );
        continue;
      }
      walkSchemas(ctx, side, media?.schema ?? true, headMedia.schema ?? true, at);
    }

    if (base.outbound) return;
    const headHeaders = headersByName(after.headers);
    for (const [key, [name, rawHeader]] of headersByName(before.headers)) {
      const now = headHeaders.get(key);
      if (!now) {
        ctx.report(
          'response-header-removed',
          [...location, `header ${name}`],
          `The response header ${name} was removed: clients that read it get nothing.`,
        );
        continue;
      }
      walkSchemas(ctx, side, headerSchema(ctx.base.resolve(rawHeader)), headerSchema(ctx.head.resolve(now[1])), [
        ...location,
        `header ${name}`,
      ]);
    }
  }
}
