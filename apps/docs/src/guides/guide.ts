// What every guide is: a title and a Markdown body generated from the contract. The docs build
// turns each into a Redoc "trait tag" (a navigable section with no operations) in a "Guides"
// group of the navigation.
import type { Marker } from '../markers.js';
import type { OpenApiDocument } from '../openapi.js';
import type { DescriptionSections } from './description-sections.js';

export interface GuideContext {
  /** The bundle as published (never the docs copy, which carries generated extras). */
  doc: OpenApiDocument;
  /** info.description split into its `## ` sections. */
  description: DescriptionSections;
  markers: Marker[];
}

export interface Guide {
  /** Stable slug: the guide's tag is `guide-<id>`, its URL `#/guide-<id>`. */
  id: string;
  title: string;
  markdown: string;
  /** info.description sections this guide presents; the overview drops them to avoid repeating. */
  replacesSections: string[];
}

export type GuideBuilder = (context: GuideContext) => Guide;

export function guideTagName(guide: Pick<Guide, 'id'>): string {
  return `guide-${guide.id}`;
}
