// Types of published-packages.mjs, for the TypeScript tests that read the same list.
export declare const root: string;
export declare function publishedPackages(): Array<{
  dir: string;
  path: string;
  text: string;
  manifest: Record<string, unknown> & { name: string; private?: boolean };
}>;
