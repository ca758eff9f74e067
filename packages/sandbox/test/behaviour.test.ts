// The behaviour suite: every operation and every error code the sandbox can produce, each response
// validated against the bundled contract by the shared harness. The last test checks coverage.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationBehaviours } from './behaviours/conversations.js';
import { crmBehaviours } from './behaviours/crm.js';
import { crossCuttingBehaviours } from './behaviours/cross-cutting.js';
import { itemBehaviours } from './behaviours/items.js';
import { robustnessBehaviours } from './behaviours/robustness.js';
import { settingsBehaviours } from './behaviours/settings.js';
import { threadAndNoteBehaviours } from './behaviours/threads-and-notes.js';
import { CANNOT_PRODUCE, expectedCoverage, operationsWithoutSuccess } from './support/coverage.js';
import { Harness } from './support/harness.js';

const coverage = new Set<string>();
let harness: Harness;
const h = () => harness;

beforeEach(() => {
  harness = new Harness({}, coverage);
});

afterEach(() => {
  expect(harness.sandbox.internalErrors).toBe(0);
});

crossCuttingBehaviours(h, coverage);
conversationBehaviours(h);
itemBehaviours(h);
threadAndNoteBehaviours(h);
crmBehaviours(h);
settingsBehaviours(h);
robustnessBehaviours(h);

describe('coverage', () => {
  it('saw every (operation, status, code) the contract lists, minus the few the sandbox cannot produce', () => {
    const expected = expectedCoverage(harness.sandbox.contract);
    const missing = [...expected].filter((entry) => !coverage.has(entry));
    expect(missing).toEqual([]);
    expect(expected.size).toBeGreaterThan(250);
    expect(CANNOT_PRODUCE.length).toBeLessThanOrEqual(3);
  });

  it('saw a success for every operation', () => {
    expect(operationsWithoutSuccess(harness.sandbox.contract, coverage)).toEqual([]);
  });

  it('saw no code outside the contract: every entry is one its operation lists, or a success', () => {
    const expected = expectedCoverage(harness.sandbox.contract);
    const stray = [...coverage].filter((entry) => !expected.has(entry) && !/^\S+ 2\d\d$/.test(entry));
    expect(stray).toEqual([]);
  });
});
