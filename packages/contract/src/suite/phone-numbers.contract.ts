// Phone numbers: the lines the key may use.
import { operationChecks } from './operation-checks.js';

operationChecks('listNumbers', { baseline: () => ({}) });
