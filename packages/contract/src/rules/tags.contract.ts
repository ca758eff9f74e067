// Tags: the team's tag list (adding and removing tags on items is in conversation-items).
import { operationChecks } from './operation-checks.js';

operationChecks('listTags', { baseline: () => ({}) });
