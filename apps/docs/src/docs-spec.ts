// Makes the docs copy of the bundle: the published contract plus what only the rendered docs
// need — generated code samples on every operation, the guides as navigable sections, and an
// overview that no longer repeats the sections the guides present. The bundle itself is never
// modified.
import { addMarkerCallouts } from './callouts.js';
import { addCodeSamples } from './code-samples.js';
import { demoApiKey } from './console/configuration.js';
import { addConsoleLinks } from './console/links.js';
import { splitDescription } from './guides/description-sections.js';
import { buildGuides, type Guide, guideTagName } from './guides/index.js';
import { blocks } from './markdown.js';
import { defaultServerUrl, type OpenApiDocument, type Tag } from './openapi.js';

/**
 * The servers panel's first entry: the local sandbox, a concrete URL a reader can call at once
 * (the contract's server is the `{base_url}` template, whose default is that sandbox).
 */
export function localSandboxServer(bundle: OpenApiDocument): { url: string; description: string } {
  return {
    url: defaultServerUrl(bundle),
    description: `The local sandbox (pnpm start in this repository, or npx svc-sandbox; demo key ${demoApiKey(bundle)}).`,
  };
}

export const GUIDES_GROUP = 'Guides';
export const REFERENCE_GROUP = 'API reference';

export function makeDocsSpec(bundle: OpenApiDocument): { spec: OpenApiDocument; guides: Guide[] } {
  const spec = structuredClone(bundle);
  const guides = buildGuides(bundle);

  addCodeSamples(spec);
  addMarkerCallouts(spec);
  addConsoleLinks(spec);
  spec.servers = [localSandboxServer(bundle), ...(spec.servers ?? [])];

  // A Redoc "trait tag" is a section with a description and no operations: exactly a guide.
  const guideTags: Tag[] = guides.map((guide) => ({
    name: guideTagName(guide),
    'x-displayName': guide.title,
    'x-traitTag': true,
    description: guide.markdown,
  }));
  const apiTags = spec.tags ?? [];
  const clash = guideTags.find((guideTag) => apiTags.some((tag) => tag.name === guideTag.name));
  if (clash) throw new Error(`Guide tag ${clash.name} clashes with a tag of the contract`);
  spec.tags = [...guideTags, ...apiTags];
  spec['x-tagGroups'] = [
    { name: GUIDES_GROUP, tags: guideTags.map((tag) => tag.name) },
    { name: REFERENCE_GROUP, tags: apiTags.map((tag) => tag.name) },
  ];

  spec.info.description = overview(bundle.info.description, guides);
  return { spec, guides };
}

/** The introduction and the sections no guide presents, then a pointer to the guides. */
function overview(description: string | undefined, guides: Guide[]): string {
  const { intro, sections } = splitDescription(description);
  const presented = new Set(guides.flatMap((guide) => guide.replacesSections));
  const kept = [...sections]
    .filter(([heading]) => !presented.has(heading))
    .map(([heading, body]) => blocks(`## ${heading}`, body));
  return blocks(
    intro,
    `**${GUIDES_GROUP}** (in the navigation): ${guides.map((guide) => `[${guide.title}](#/${guideTagName(guide)})`).join(' · ')}.`,
    ...kept,
  );
}
