// The Postman collection (v2.1) and its sandbox environment, built from the bundle so that it
// passes as shipped: one request per operation with the contract's own example values (the
// examples describe the sandbox's seed), folders by tag in the contract's order, the webhook
// delivery in a folder of its own, collection-level auth `Api-Key {{api_key}}`, a fresh
// Idempotency-Key ({{$guid}}) on every request that documents one, requests paced under the
// documented rate limits, and a test per request: a documented status, the documented schema.
// Postman's own converter (openapi-to-postmanv2) wrote `<string>` placeholders where a value sits
// in a 3.1 schema's `examples`, and no tests; so this builds the collection itself.

const SCHEMA_URL = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const SUCCESS = /^2\d\d$/;
const WITHOUT_KEY_FOLDER = 'Errors: every operation without its key';

/** A local `$ref` followed to its target (chains too). */
function resolve(bundle, node) {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((at, key) => at?.[key], bundle);
  }
  return current;
}

/** The example a parameter gives: its own, else its schema's `examples[0]` or `example`. */
function parameterExample(bundle, parameter) {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {})[0];
  if (named) return resolve(bundle, named).value;
  const schema = resolve(bundle, parameter.schema) ?? {};
  return Array.isArray(schema.examples) && schema.examples.length > 0 ? schema.examples[0] : schema.example;
}

function parametersOf(bundle, pathItem, operation) {
  const own = (operation.parameters ?? []).map((p) => resolve(bundle, p));
  const shared = (pathItem.parameters ?? [])
    .map((p) => resolve(bundle, p))
    .filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
  return [...shared, ...own];
}

/** The first request-body example of an operation, if it takes a JSON body. */
function bodyExample(bundle, operation) {
  const media = resolve(bundle, operation.requestBody)?.content?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first ? resolve(bundle, first).value : undefined;
}

/** The documented statuses matching `pattern`, each with its JSON schema (null where no body is documented). */
function documentedStatuses(bundle, operation, pattern) {
  return Object.fromEntries(
    Object.entries(operation.responses ?? {})
      .filter(([status]) => pattern.test(status))
      .map(([status, response]) => [status, resolve(bundle, response)?.content?.['application/json']?.schema ?? null]),
  );
}

/** The error codes a response's examples show (`error.code` of each), in their order. */
function exampleCodes(bundle, response) {
  const examples = Object.values(resolve(bundle, response)?.content?.['application/json']?.examples ?? {});
  return [...new Set(examples.map((example) => resolve(bundle, example)?.value?.error?.code).filter(Boolean))];
}

function urlOf(bundle, path, parameters) {
  // In a path and a query the `+` of an E.164 number is sent as %2B: Postman sends a raw `+`,
  // which servers read as a space.
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      const parameter = name && parameters.find((p) => p.in === 'path' && p.name === name);
      return name ? encodeURIComponent(String(parameter ? parameterExample(bundle, parameter) : name)) : segment;
    });
  const query = parameters
    .filter((p) => p.in === 'query')
    .flatMap((p) => {
      const value = parameterExample(bundle, p);
      return value === undefined ? [] : [{ key: p.name, value: encodeURIComponent(String(value)) }];
    });
  const search = query.map((q) => `${q.key}=${q.value}`).join('&');
  return {
    raw: `{{base_url}}/${segments.join('/')}${search ? `?${search}` : ''}`,
    host: ['{{base_url}}'],
    path: segments,
    ...(query.length ? { query } : {}),
  };
}

/**
 * The test script of a request: its status is one the contract documents for it (a success, or the
 * error it is an example of); its body matches that status's documented schema (a 204 has no body);
 * and, for an error example, `error.code` is one of the codes the documented error shows.
 */
function testScript(statuses, codes) {
  const kind = codes ? 'error' : 'success';
  return [
    `const documented = ${JSON.stringify(statuses)};`,
    `pm.test('the status is a documented ${kind} (' + Object.keys(documented).join(' or ') + ')', () => {`,
    '  pm.expect(Object.keys(documented)).to.include(String(pm.response.code));',
    '});',
    'const schema = documented[String(pm.response.code)];',
    'if (schema) {',
    "  pm.test('the body matches the documented schema', () => {",
    "    const Ajv = require('ajv');",
    "    const ajv = new Ajv({ allErrors: true, unknownFormats: 'ignore', logger: false });",
    "    const components = JSON.parse(pm.collectionVariables.get('svc_components'));",
    '    const valid = ajv.validate({ allOf: [schema], components }, pm.response.json());',
    '    pm.expect(valid, ajv.errorsText()).to.equal(true);',
    '  });',
    '} else if (pm.response.code === 204) {',
    "  pm.test('the body is empty, as a 204 has none', () => {",
    "    pm.expect(pm.response.text()).to.equal('');",
    '  });',
    '}',
    ...(codes
      ? [
          `const codes = ${JSON.stringify(codes)};`,
          "pm.test('the error code is a documented one (' + codes.join(' or ') + ')', () => {",
          '  pm.expect(codes).to.include(pm.response.json().error.code);',
          '});',
        ]
      : []),
  ];
}

function requestItem(bundle, path, pathItem, method, operation) {
  const parameters = parametersOf(bundle, pathItem, operation);
  const body = bodyExample(bundle, operation);
  const header = [];
  if (body !== undefined) header.push({ key: 'Content-Type', value: 'application/json' });
  if (parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'))
    header.push({ key: 'Idempotency-Key', value: '{{$guid}}', description: 'A fresh key per request.' });
  return {
    name: operation.summary ?? operation.operationId,
    request: {
      method: method.toUpperCase(),
      header,
      url: urlOf(bundle, path, parameters),
      ...(body !== undefined ? { body: { mode: 'raw', raw: JSON.stringify(body, null, 2) } } : {}),
      description: `${operation.operationId}: ${operation.description ?? ''}`.trim(),
    },
    event: [
      {
        listen: 'test',
        script: { type: 'text/javascript', exec: testScript(documentedStatuses(bundle, operation, SUCCESS)) },
      },
    ],
  };
}

/**
 * The same request sent without its key, an example of the 401 every operation documents: the
 * status, the documented error schema, and a code among those its 401 examples show (which of them
 * a missing key gets is for the server to say: the description names three for 401).
 */
function withoutKeyItem(bundle, path, pathItem, method, operation) {
  const item = requestItem(bundle, path, pathItem, method, operation);
  const statuses = documentedStatuses(bundle, operation, /^401$/);
  const codes = exampleCodes(bundle, operation.responses['401']);
  return {
    ...item,
    name: `${item.name}: without a key`,
    request: { ...item.request, auth: { type: 'noauth' } },
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: testScript(statuses, codes) } }],
  };
}

function webhookItems(bundle) {
  return Object.entries(bundle.webhooks ?? {}).flatMap(([topic, rawItem]) => {
    const pathItem = resolve(bundle, rawItem);
    return METHODS.filter((m) => pathItem[m]).map((method) => {
      const operation = pathItem[method];
      const body = bodyExample(bundle, operation);
      return {
        name: `${topic}: ${operation.summary ?? operation.operationId}`,
        request: {
          method: method.toUpperCase(),
          auth: { type: 'noauth' },
          header: [{ key: 'Content-Type', value: 'application/json' }],
          url: { raw: '{{webhook_url}}', host: ['{{webhook_url}}'] },
          ...(body !== undefined ? { body: { mode: 'raw', raw: JSON.stringify(body, null, 2) } } : {}),
          description: `What the service POSTs to your receiver (webhook_url): ${operation.description ?? ''}`.trim(),
        },
        event: [
          {
            listen: 'test',
            script: { type: 'text/javascript', exec: testScript(documentedStatuses(bundle, operation, SUCCESS)) },
          },
        ],
      };
    });
  });
}

/** Pre-request script of the collection: each request waits its share of the documented budget. */
function pacingScript(limits) {
  const reads = limits.read_methods ?? ['GET'];
  // 10% under each budget, so that a server's window boundary never sees one request too many.
  const readGap = Math.ceil((1000 / limits.read_requests_per_second) * 1.1);
  const writeGap = Math.ceil((1000 / limits.write_requests_per_second) * 1.1);
  return [
    `// Paced under the documented limits: ${limits.read_requests_per_second} reads and ${limits.write_requests_per_second} writes per second.`,
    `const gap = ${JSON.stringify(reads)}.includes(pm.request.method) ? ${readGap} : ${writeGap};`,
    'setTimeout(() => {}, gap);',
  ];
}

export function toPostman(bundle) {
  const folders = new Map((bundle.tags ?? []).map((tag) => [tag.name, []]));
  const withoutKey = [];
  for (const [path, rawItem] of Object.entries(bundle.paths ?? {})) {
    const pathItem = resolve(bundle, rawItem);
    for (const method of METHODS.filter((m) => pathItem[m])) {
      const operation = pathItem[method];
      const tag = operation.tags?.[0] ?? 'Other';
      if (!folders.has(tag)) folders.set(tag, []);
      folders.get(tag).push(requestItem(bundle, path, pathItem, method, operation));
      if (operation.responses?.['401']) withoutKey.push(withoutKeyItem(bundle, path, pathItem, method, operation));
    }
  }
  const webhookTag = (bundle.tags ?? []).find((t) => t.name === 'Webhooks')?.name ?? 'Webhooks';
  folders.set(webhookTag, webhookItems(bundle));
  folders.set(WITHOUT_KEY_FOLDER, withoutKey);
  const base = bundle.servers?.find((server) => server.variables?.base_url)?.variables.base_url.default ?? '';
  return {
    info: {
      name: bundle.info.title,
      description: `Built from version ${bundle.info.version} of the contract. Set api_key (the sandbox environment file sets its demo key).`,
      schema: SCHEMA_URL,
    },
    auth: {
      type: 'apikey',
      apikey: [
        { key: 'key', value: 'Authorization', type: 'string' },
        { key: 'value', value: 'Api-Key {{api_key}}', type: 'string' },
        { key: 'in', value: 'header', type: 'string' },
      ],
    },
    event: [
      { listen: 'prerequest', script: { type: 'text/javascript', exec: pacingScript(bundle.info['x-svc-limits']) } },
    ],
    variable: [
      { key: 'base_url', value: base, type: 'string', description: 'Base address of the service.' },
      { key: 'api_key', value: '', type: 'string', description: 'Your API key (never commit it).' },
      {
        key: 'webhook_url',
        value: 'http://localhost:3000/webhooks',
        type: 'string',
        description: 'Your webhook receiver.',
      },
      {
        key: 'svc_components',
        value: JSON.stringify({ schemas: bundle.components?.schemas ?? {} }),
        type: 'string',
        description: "The contract's schemas, which the tests validate against.",
      },
    ],
    item: [...folders]
      .filter(([, items]) => items.length > 0)
      .map(([name, items]) => ({
        name,
        description:
          name === WITHOUT_KEY_FOLDER
            ? 'Each operation sent without the Authorization header: the 401 it documents, with its error code.'
            : ((bundle.tags ?? []).find((t) => t.name === name)?.description ?? ''),
        item: items,
      })),
  };
}

/** The environment of the local sandbox: its address and its demo key (a sandbox-only key). */
export function sandboxEnvironment(bundle) {
  const sandbox = bundle.servers?.find((server) => server['x-svc-demo-api-key']);
  if (!sandbox) throw new Error('No server names a demo key (x-svc-demo-api-key): which is the sandbox?');
  return {
    name: `${bundle.info.title}: local sandbox`,
    values: [
      { key: 'base_url', value: sandbox.url, type: 'default', enabled: true },
      { key: 'api_key', value: sandbox['x-svc-demo-api-key'], type: 'default', enabled: true },
      { key: 'webhook_url', value: 'http://localhost:3000/webhooks', type: 'default', enabled: true },
    ],
    _postman_variable_scope: 'environment',
  };
}
