// The JSON report: the Report model as it is (stable field names; check ids as in CHECKS).
import type { Report } from './model.js';

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
