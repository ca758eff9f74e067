import type { CheckDescription } from '../src/check-descriptions.js';

export declare const DESCRIBING_MODULES: readonly string[];
export declare function catalogueTable(descriptions: readonly CheckDescription[]): string;
export declare function writtenCatalogue(text: string, descriptions: readonly CheckDescription[]): string;
export declare function writtenRules(
  text: string,
  descriptions: readonly CheckDescription[],
  isRuleId: (text: string) => boolean,
): string;
