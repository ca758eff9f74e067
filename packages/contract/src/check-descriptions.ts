// What each check is, said once where the check is written: its rule() entry (or, for a check
// the runner makes, the module that makes it) describes it here when imported. The catalogue
// (catalogue.ts), the rules-to-checks map (reach/rules.ts ENFORCED_BY) and RULES.md's "enforced by"
// column are written from these descriptions by `pnpm rules:write`.

export interface CheckDescription {
  /** Stable: CI dashboards, the JSON report and the package's own mutation tests refer to it. */
  id: string;
  /** What must be true. */
  title: string;
  /** Where the expectation comes from, for the README and the report. */
  source: string;
  /** The spec's statements the check enforces, by their rule id (reach/rules.ts: `x-svc-option-rules LABEL_UNIQUE`). */
  enforces?: readonly string[];
  /**
   * The state the check must reach before its rule can show a fault, in one line ("any answer",
   * "a request the server must refuse", "do_not_disturb set to its non-default value first"; where
   * only a config fixture reaches it, which one). Where the rule entry says whether it held
   * (`notReached`), a run that never reached it reports the check "not exercised", never passed.
   */
  precondition?: string;
}

const described = new Map<string, CheckDescription>();

const same = (a: CheckDescription, b: CheckDescription) =>
  a.title === b.title &&
  a.source === b.source &&
  a.precondition === b.precondition &&
  (a.enforces ?? []).join('\n') === (b.enforces ?? []).join('\n');

/** Describes a check; describing it again is allowed only with the same words (a check is described once). */
export function describeCheck(check: CheckDescription): void {
  const known = described.get(check.id);
  if (known && !same(known, check)) throw new Error(`The check ${check.id} is described twice, differently.`);
  const { id, title, source, enforces, precondition } = check;
  described.set(id, {
    id,
    title,
    source,
    ...(enforces?.length ? { enforces: [...enforces] } : {}),
    ...(precondition ? { precondition } : {}),
  });
}

/** Every check described so far, in the order first described. */
export function describedChecks(): readonly CheckDescription[] {
  return [...described.values()];
}

export function describedCheck(id: string): CheckDescription | undefined {
  return described.get(id);
}
