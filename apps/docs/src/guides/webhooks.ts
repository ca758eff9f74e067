// "Webhooks": every event of the contract's `webhooks` (today CALL_RECEIVED) with its delivery,
// payload fields and example, then the events and webhook management the description names but
// does not specify.
import { readUnspecifiedOperations } from '@svc/spec-runtime/facts';
import { ownExample } from '@svc/spec-runtime/walk';
import { callout } from '../callouts.js';
import { blocks, bulletList, code, fencedBlock, oneLine } from '../markdown.js';
import {
  asJson,
  listOperations,
  type OpenApiDocument,
  type OperationEntry,
  requestMediaOf,
  resolve,
} from '../openapi.js';
import type { GuideBuilder } from './guide.js';
import { unspecifiedOperationItem } from './not-yet-specified.js';
import { fieldTable } from './schema-text.js';

function eventSection(doc: OpenApiDocument, entry: OperationEntry): string {
  const media = requestMediaOf(doc, entry.operation);
  const schema = media?.schema;
  const envelope = schema ? resolve(doc, schema) : undefined;
  // The envelope's nested objects (the event `body`) get their own field table.
  const nested = Object.entries(envelope?.properties ?? {}).filter(([, property]) => resolve(doc, property).properties);
  const example = media && ownExample(asJson(doc), asJson(media));
  const unspecified = entry.operation['x-svc-unspecified'];

  return blocks(
    `## ${entry.path}`,
    `**${entry.operation.summary ?? entry.path}**: the service sends ${code(`${entry.method.toUpperCase()} <your webhook URL>`)}.`,
    entry.operation.description?.trim(),
    schema && `### Payload`,
    schema && envelope?.description && oneLine(envelope.description),
    schema && fieldTable(doc, schema),
    ...nested.flatMap(([name, property]) => [`### ${code(name)}`, fieldTable(doc, property)]),
    example && '### Example delivery',
    example && fencedBlock('json', JSON.stringify(example.value, null, 2)),
    '### Your answer',
    bulletList(
      Object.entries(entry.operation.responses ?? {}).map(
        ([status, response]) => `${status}: ${oneLine(resolve(doc, response).description)}`,
      ),
    ),
    typeof unspecified === 'string' && callout('x-svc-unspecified', unspecified),
  );
}

export const webhooksGuide: GuideBuilder = ({ doc }) => {
  const events = listOperations(doc, 'webhooks');
  if (events.length === 0) throw new Error('The contract has no webhooks');
  const webhookTags = new Set(events.flatMap((entry) => entry.operation.tags ?? []));
  const open = readUnspecifiedOperations(asJson(doc)).filter(
    (item) => item.tag !== undefined && webhookTags.has(item.tag),
  );

  return {
    id: 'webhooks',
    title: 'Webhooks',
    replacesSections: [],
    markdown: blocks(
      `The service POSTs events to URLs you register. The contract specifies ${events.length === 1 ? 'one event' : `${events.length} events`}: ${events.map((entry) => code(entry.path)).join(', ')}.`,
      ...events.map((entry) => eventSection(doc, entry)),
      '## Signatures and retries',
      'The API description says deliveries carry HMAC signatures and are retried automatically, but it does not show the signature header, the signing scheme, the retry schedule or the delivery headers. So they are not shown here either: nothing in this contract, its sandbox or its client verifies a signature or simulates a retry, and nothing of the kind is invented.',
      '## Try it',
      bulletList([
        `Send a delivery built from the sandbox's seeded calls to your receiver: ${code('svc-sandbox trigger CALL_RECEIVED --url http://localhost:3000/webhooks')} (it prints your receiver's status), or ${code('POST /__sandbox/webhooks/trigger')} on a sandbox started with ${code('--enable-webhook-trigger')} (with a sandbox key and ${code('Content-Type: application/json')}, from the sandbox's own address: a web page of another origin is refused).`,
        `Check a delivery on your side: ${code('parseWebhook(body)')} from ${code('@svc/api-client/webhooks')} validates ${code('{ topic, body }')} against the contract and returns a typed event or a typed error.`,
      ]),
      open.length > 0 && '## Named but not yet specified',
      open.length > 0 && bulletList(open.map(unspecifiedOperationItem)),
    ),
  };
};
