// Splits the contract's info.description into its introduction and its `## ` sections, so the
// guides can reuse the contract's own prose (how idempotency works, what request ids are) instead
// of restating it, and the overview can drop the sections a guide now presents.

export interface DescriptionSections {
  /** Everything before the first `## ` heading. */
  intro: string;
  /** Section bodies by heading text, in document order. */
  sections: Map<string, string>;
}

export function splitDescription(description: string | undefined): DescriptionSections {
  const sections = new Map<string, string>();
  const introLines: string[] = [];
  let heading: string | undefined;
  let body: string[] = [];
  let inFence = false;
  const flush = () => {
    if (heading !== undefined) sections.set(heading, body.join('\n').trim());
  };
  for (const line of (description ?? '').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const match = inFence ? null : /^## +(.+?)\s*$/.exec(line);
    if (match?.[1]) {
      flush();
      heading = match[1];
      body = [];
    } else if (heading === undefined) introLines.push(line);
    else body.push(line);
  }
  flush();
  return { intro: introLines.join('\n').trim(), sections };
}

/** A section's body; a guide that relies on a section fails the build if it disappears. */
export function requireSection(split: DescriptionSections, heading: string): string {
  const body = split.sections.get(heading);
  if (body === undefined) {
    throw new Error(
      `info.description has no "## ${heading}" section (found: ${[...split.sections.keys()].join(', ')})`,
    );
  }
  return body;
}
