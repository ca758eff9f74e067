import { describe, expect, it } from 'vitest';
import { GUIDES_GROUP, makeDocsSpec, REFERENCE_GROUP } from '../src/docs-spec.js';
import { guideTagName } from '../src/guides/index.js';
import { loadBundle } from '../src/load-bundle.js';

describe('the docs copy of the bundle', () => {
  const bundle = loadBundle();
  const before = JSON.stringify(bundle);
  const { spec, guides } = makeDocsSpec(bundle);

  it('leaves the bundle untouched', () => {
    expect(JSON.stringify(bundle)).toBe(before);
  });

  it('adds each guide as a trait tag in a Guides group, before the reference tags', () => {
    const groups = spec['x-tagGroups'] as { name: string; tags: string[] }[];
    expect(groups.map((group) => group.name)).toEqual([GUIDES_GROUP, REFERENCE_GROUP]);
    expect(groups[0]!.tags).toEqual(guides.map(guideTagName));
    expect(groups[1]!.tags).toEqual((bundle.tags ?? []).map((tag) => tag.name));
    for (const guide of guides) {
      const tag = spec.tags?.find((candidate) => candidate.name === guideTagName(guide));
      expect(tag).toMatchObject({ 'x-traitTag': true, 'x-displayName': guide.title, description: guide.markdown });
    }
  });

  it('keeps the overview, minus the sections a guide now presents, and links every guide', () => {
    const overview = spec.info.description ?? '';
    for (const heading of guides.flatMap((guide) => guide.replacesSections))
      expect(overview).not.toContain(`## ${heading}\n`);
    expect(overview).toContain('## Conventions');
    for (const guide of guides) expect(overview).toContain(`](#/${guideTagName(guide)})`);
  });
});
