#!/usr/bin/env node
// pnpm rules:write (after pnpm build): writes src/catalogue.ts's table and RULES.md's "enforced by"
// column from the checks' descriptions, as the built package describes them (rules-text.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { DESCRIBING_MODULES, writtenCatalogue, writtenRules } from './rules-text.mjs';

const dist = new URL('../dist/', import.meta.url);
for (const module of DESCRIBING_MODULES) await import(new URL(module, dist).href);
const { describedChecks } = await import(new URL('check-descriptions.js', dist).href);
const { RULE_EXTENSIONS } = await import(new URL('reach/rules.js', dist).href);
const descriptions = describedChecks();

const isRuleId = (text) => RULE_EXTENSIONS.some((x) => text.startsWith(`${x} `));
const files = [
  [new URL('../src/catalogue.ts', import.meta.url), (text) => writtenCatalogue(text, descriptions)],
  [new URL('../RULES.md', import.meta.url), (text) => writtenRules(text, descriptions, isRuleId)],
];
for (const [file, write] of files) {
  const before = readFileSync(file, 'utf8');
  const after = write(before);
  if (after !== before) writeFileSync(file, after);
  console.log(`${after === before ? 'unchanged' : 'written'}: ${file.pathname.split('/').slice(-2).join('/')}`);
}
console.log(`${descriptions.length} checks`);
