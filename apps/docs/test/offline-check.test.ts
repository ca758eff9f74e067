import { describe, expect, it } from 'vitest';
import { findExternalLoads } from '../src/offline-check.js';

describe('findExternalLoads', () => {
  it('reports scripts, stylesheets, preloads, images, CSS urls, CSS imports and module imports from the network', () => {
    const html = [
      '<script src="https://cdn.example.com/redoc.js"></script>',
      '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">',
      '<link rel="modulepreload" href="//cdn.example.com/m.js" crossorigin>',
      '<img alt="logo" src="https://cdn.example.com/logo.svg">',
      '<style>@font-face { src: url(https://fonts.gstatic.com/a.woff2) } @import "https://cdn.example.com/x.css";</style>',
      '<script type="module">import { hydrate } from "https://cdn.redocly.com/redoc/v3/redoc.standalone.js";</script>',
    ].join('\n');
    expect(findExternalLoads(html).map((load) => `${load.kind} ${load.url}`)).toEqual([
      'script https://cdn.example.com/redoc.js',
      'link https://fonts.googleapis.com/css?family=Roboto',
      'link //cdn.example.com/m.js',
      'image https://cdn.example.com/logo.svg',
      'css-url https://fonts.gstatic.com/a.woff2',
      'css-import https://cdn.example.com/x.css',
      'module-import https://cdn.redocly.com/redoc/v3/redoc.standalone.js',
    ]);
  });

  it('reports an asset URL a script would load, such as a logo it mounts, once', () => {
    const html =
      '<script>const logo = (full) => ({ src: full ? `https://cdn.redoc.ly/redoc/logo-mini-full.svg` : "//cdn.example.com/a/logo.png?v=2" });</script>' +
      '<img src="https://cdn.example.com/once.svg">';
    expect(findExternalLoads(html).map((load) => `${load.kind} ${load.url}`)).toEqual([
      'image https://cdn.example.com/once.svg',
      'asset-url https://cdn.redoc.ly/redoc/logo-mini-full.svg',
      'asset-url //cdn.example.com/a/logo.png',
    ]);
  });

  it('ignores what is only linked or only text, and what is local', () => {
    const html = [
      '<a href="https://redocly.com/redoc/">API docs by Redocly</a>',
      '<p>doc_url: https://docs.example.com/errors/INVALID_REQUEST</p>',
      '<script src="./local.js"></script>',
      '<link rel="stylesheet" href="styles.css">',
      '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
      '<p>recording_url: https://recordings.example.com/cll-1.mp3</p>',
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">',
    ].join('\n');
    expect(findExternalLoads(html)).toEqual([]);
  });
});
