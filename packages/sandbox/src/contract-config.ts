// What the contract suite needs to know about the sandbox that no API operation tells it (the
// other demo keys, one key per scope, the hidden ids), in svc-contract's --config format. The
// format and its derivation from a seed live in @svc/spec-runtime/sandbox-config, which the
// contract suite reads too without loading this server; `svc-sandbox` serves it at
// CONTRACT_CONFIG_PATH (no key needed: the demo keys are public, fictional sandbox keys).
export {
  allButScopesKeyOf,
  CONTRACT_CONFIG_PATH,
  CONTRACT_CONFIG_SERVER,
  type ContractConfigKey,
  contractConfigOf,
  mainKeyOf,
  operationScopeSets,
  type SandboxContractConfig,
  type ScopeFacts,
  singleScopeKeyOf,
  withScopeKeys,
} from '@svc/spec-runtime/sandbox-config';
