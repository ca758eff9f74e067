// One OpenAPI document as the comparison sees it: internal `$ref` resolution (the bundle keeps its
// components hoisted and referenced; a dereferenced bundle works too), the list of operations of
// `paths` and `webhooks`, and the major version of `info.version`. Nothing here judges a change.
import { buildView } from './schema-view.mjs';

/**
 * @typedef {any} Json
 * @typedef {import('./schema-view.mjs').View} View
 * @typedef {{
 *   key: string,        // "GET /v2/api/users" or "webhook CALL_RECEIVED POST": pairs operations and labels findings
 *   container: string,  // "/v2/api/users" or "webhook CALL_RECEIVED"
 *   method: string,     // lower case
 *   op: Json,
 *   pathItem: Json,
 *   outbound: boolean,  // true for webhooks: the service sends the request and reads the reply
 * }} Operation
 */

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A document the gate cannot read: the CLI turns it into exit code 2, never into a finding. */
export class ContractError extends Error {}

export class Contract {
  /**
   * @param {Json} doc the parsed OpenAPI document
   * @param {string} name how error messages name it ("baseline", "current" or a file name)
   */
  constructor(doc, name) {
    if (!doc || typeof doc !== 'object' || typeof doc.openapi !== 'string') {
      throw new ContractError(`${name} is not an OpenAPI document (it has no "openapi" field)`);
    }
    this.doc = doc;
    this.name = name;
    /** Views are cached per raw schema object, so a recursive schema maps to the same view each
     * time the walk reaches it: that identity is what stops the walk on cycles.
     * @type {WeakMap<object, View>} */
    this.views = new WeakMap();
  }

  get version() {
    return String(this.doc.info?.version ?? '');
  }

  /** The major version of `info.version` ("2.1.0" and "v2" give 2), or undefined when it has none. */
  get major() {
    const match = /^v?(\d+)/.exec(this.version.trim());
    return match ? Number(match[1]) : undefined;
  }

  /**
   * The node a JSON pointer (`#/components/schemas/X`) designates. Only internal references
   * exist in a bundle; anything else means the file is not a bundle.
   * @param {string} ref
   */
  pointer(ref) {
    if (ref === '#') return this.doc;
    if (!ref.startsWith('#/'))
      throw new ContractError(`${this.name}: external reference ${ref} (compare bundled documents)`);
    let node = this.doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (node === null || typeof node !== 'object' || !(key in node)) {
        throw new ContractError(`${this.name}: unresolvable reference ${ref}`);
      }
      node = node[key];
    }
    return node;
  }

  /**
   * Follows `$ref`s of a non-schema object (path item, parameter, response, header, request body)
   * to the object itself. Their `$ref` siblings may only be summary/description, so they are
   * dropped. A chain longer than any real one is a cycle.
   * @param {Json} node
   */
  resolve(node) {
    let current = node;
    for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
      if (hops > 32) throw new ContractError(`${this.name}: reference cycle at ${node.$ref}`);
      current = this.pointer(current.$ref);
    }
    return current;
  }

  /**
   * The normalized view of a schema (see schema-view.mjs), cached.
   * @param {Json} schema
   * @returns {View}
   */
  view(schema) {
    return buildView(this, schema);
  }

  /** @returns {Map<string, Operation>} every operation of `paths` and `webhooks`, by key */
  operations() {
    /** @type {Map<string, Operation>} */
    const out = new Map();
    for (const [container, item, outbound] of this.containers()) {
      for (const method of HTTP_METHODS) {
        if (item[method] && typeof item[method] === 'object') {
          const key = outbound ? `${container} ${method.toUpperCase()}` : `${method.toUpperCase()} ${container}`;
          out.set(key, { key, container, method, op: item[method], pathItem: item, outbound });
        }
      }
    }
    return out;
  }

  /**
   * Paths and webhooks, each as [label, resolved path item, outbound]. A path's label is its
   * template, which is also the key of a typed client (renaming `{id}` is a removal for it).
   * @returns {[string, Json, boolean][]}
   */
  containers() {
    /** @type {[string, Json, boolean][]} */
    const out = [];
    for (const [path, item] of Object.entries(this.doc.paths ?? {})) out.push([path, this.resolve(item) ?? {}, false]);
    for (const [name, item] of Object.entries(this.doc.webhooks ?? {}))
      out.push([`webhook ${name}`, this.resolve(item) ?? {}, true]);
    return out;
  }
}
