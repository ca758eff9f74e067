export { bundledContract } from '@svc/server-kernel';
export type { Sandbox, SandboxOptions } from './app.js';
export { createSandbox, RESET_PATH } from './app.js';
export type { ContractConfigKey, SandboxContractConfig } from './contract-config.js';
export {
  allButScopesKeyOf,
  CONTRACT_CONFIG_PATH,
  CONTRACT_CONFIG_SERVER,
  contractConfigOf,
  mainKeyOf,
  singleScopeKeyOf,
  withScopeKeys,
} from './contract-config.js';
export { RESERVE_RUNS, withContractReserve } from './contract-reserve.js';
export { docsErrorUrl, servedDocsUrl } from './doc-url.js';
export { type DocsOptions, docsRoute } from './docs-route.js';
export { DEFAULT_SEED_PATH, loadSeedFile } from './seed-file.js';
export type { RunningSandbox, ServeOptions } from './server.js';
export { DEFAULT_HOST, DEFAULT_PORT, startSandboxServer } from './server.js';
export type * from './store/model.js';
