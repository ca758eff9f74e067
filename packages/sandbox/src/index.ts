export { createSandbox, RESET_PATH } from './app.js';
export type { Sandbox, SandboxOptions } from './app.js';
export { startSandboxServer, DEFAULT_HOST, DEFAULT_PORT } from './server.js';
export type { RunningSandbox, ServeOptions } from './server.js';
export { loadSeedFile, DEFAULT_SEED_PATH } from './seed-file.js';
export { bundledContract } from '@svc/server-kernel';
export type * from './store/model.js';
export { docsErrorUrl, servedDocsUrl } from './doc-url.js';
