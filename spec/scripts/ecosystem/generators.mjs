// The code generators of the matrix, run in this process with their defaults (plus the options a
// user picks to get a fetch client). Each writes into its own folder and reports what it printed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient as heyApi } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';
import { generateZodClientFromOpenAPI } from 'openapi-zod-client';
import { generate as orval } from 'orval';
import { generateApi } from 'swagger-typescript-api';
import { captured } from './capture.mjs';

/** Every generator: its name, the folder it writes and how to run it. */
export const generators = [
  {
    name: 'openapi-typescript',
    folder: 'openapi-typescript',
    run: async ({ doc, out }) => write(out, 'schema.ts', astToString(await openapiTS(structuredClone(doc)))),
  },
  {
    name: 'openapi-typescript --enum',
    folder: 'openapi-typescript-enum',
    run: async ({ doc, out }) =>
      write(out, 'schema.ts', astToString(await openapiTS(structuredClone(doc), { enum: true }))),
  },
  {
    name: '@hey-api/openapi-ts (fetch)',
    folder: 'hey-api',
    run: ({ bundlePath, out }) =>
      heyApi({
        input: bundlePath,
        output: { path: out },
        plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
        logs: { level: 'warn', file: false },
      }),
  },
  {
    name: 'orval (fetch)',
    folder: 'orval',
    run: ({ bundlePath, out }) =>
      orval(
        {
          input: { target: bundlePath },
          output: { target: join(out, 'client.ts'), client: 'fetch', mode: 'single', prettier: false },
        },
        out,
      ),
  },
  {
    name: 'openapi-zod-client',
    folder: 'openapi-zod-client',
    run: ({ doc, out }) =>
      generateZodClientFromOpenAPI({
        openApiDoc: structuredClone(doc),
        distPath: join(out, 'client.ts'),
        prettierConfig: null,
        options: { exportSchemas: true, withAlias: true },
      }),
  },
  {
    name: 'swagger-typescript-api',
    folder: 'swagger-typescript-api',
    run: ({ bundlePath, out }) =>
      generateApi({
        input: bundlePath,
        output: out,
        fileName: 'api.ts',
        httpClientType: 'fetch',
        silent: false,
      }),
  },
];

/** Runs one generator into out; its thrown error or printed errors and warnings are findings. */
export async function runGenerator(generator, context) {
  mkdirSync(context.out, { recursive: true });
  const result = await captured(() => generator.run(context));
  const errors = result.errors.map((message) => ({ rule: 'output', message }));
  if (result.thrown)
    errors.unshift({ rule: 'threw', message: String(result.thrown?.stack ?? result.thrown).split('\n')[0] });
  return { errors, warnings: result.warnings.map((message) => ({ rule: 'output', message })), info: result.info };
}

function write(folder, file, text) {
  writeFileSync(join(folder, file), text);
}
