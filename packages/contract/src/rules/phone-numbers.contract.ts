// Phone numbers: the lines the key may use. Every line listed here is used by the line-scoped
// operations: reads.every-line (declared with each read) and writes.every-line (declared here,
// for every write whose path names a line).
import { lineScopedWrites } from './each-line-writes.js';
import { operationChecks } from './operation-checks.js';

operationChecks('listNumbers', { baseline: () => ({}) });

lineScopedWrites();
