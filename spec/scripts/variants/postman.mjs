// A Postman collection generated from the bundle by Postman's own converter (openapi-to-postmanv2),
// folders by tag, with two collection variables an integrator fills in: {{base_url}} (the server
// variable of the contract) and {{api_key}} (sent as `Authorization: Api-Key {{api_key}}`).
import { promisify } from 'node:util';
import postman from 'openapi-to-postmanv2';

export async function toPostman(bundle) {
  const result = await promisify(postman.convert)(
    { type: 'json', data: structuredClone(bundle) },
    {
      folderStrategy: 'Tags',
      requestNameSource: 'Fallback',
      parametersResolution: 'Example',
      includeWebhooks: false,
      alwaysInheritAuthentication: true,
    },
  );
  if (!result.result) throw new Error(`openapi-to-postmanv2: ${result.reason}`);
  // The converter names the server variable baseUrl; the contract's name is base_url.
  const collection = JSON.parse(JSON.stringify(result.output[0].data).replaceAll('{{baseUrl}}', '{{base_url}}'));
  const base = bundle.servers?.find((server) => server.variables?.base_url)?.variables.base_url.default ?? '';
  collection.variable = [
    ...(collection.variable ?? []).filter((v) => !['base_url', 'baseUrl', 'api_key', 'apiKey'].includes(v.key)),
    { key: 'base_url', value: base, type: 'string', description: 'Base address of the service.' },
    { key: 'api_key', value: '', type: 'string', description: 'Your API key (never commit it).' },
  ];
  collection.auth = {
    type: 'apikey',
    apikey: [
      { key: 'key', value: 'Authorization', type: 'string' },
      { key: 'value', value: 'Api-Key {{api_key}}', type: 'string' },
      { key: 'in', value: 'header', type: 'string' },
    ],
  };
  return collection;
}
