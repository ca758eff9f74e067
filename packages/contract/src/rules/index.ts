// The whole suite: each file declares its checks when imported, so the registry holds them in
// the order of these imports (file names in order) and of the declarations inside each file.
import './ai-receptionist-lines.contract.js';
import './ai-receptionist-read-only.contract.js';
import './ai-receptionist.contract.js';
import './api-wide.contract.js';
import './conversation-items-batch.contract.js';
import './conversation-items-summaries.contract.js';
import './conversation-items.contract.js';
import './conversations.contract.js';
import './custom-fields-listed.contract.js';
import './custom-fields.contract.js';
import './deals.contract.js';
import './described-rules.contract.js';
import './dialer-queues-by-email.contract.js';
import './dialer-queues-key-owner.contract.js';
import './dialer-queues.contract.js';
import './notes.contract.js';
import './notes-mention-name.contract.js';
import './people.contract.js';
import './people-update.contract.js';
import './phone-numbers.contract.js';
import './rate-limit-budget.contract.js';
import './replay-scope.contract.js';
import './search.contract.js';
import './search-on-line.contract.js';
import './summary-templates.contract.js';
import './tags.contract.js';
import './tags-per-item.contract.js';
import './tags-idempotency.contract.js';
import './tenants-actions.contract.js';
import './tenants-tags.contract.js';
import './threads.contract.js';
import './thread-comment-author.contract.js';
import './thread-mentions.contract.js';
import './users.contract.js';
// Last: it sends again the keys every check above used.
import './idempotency-kept.contract.js';

export { registeredChecks } from './harness.js';
