// @svc/contract: the contract tests of the Team Communications Service API, as a library.
export { runContract, DEFAULT_OUTPUT, API_KEY_ENV } from './run.js';
export type { RunResult } from './run.js';
export { parseCli, parseRate, USAGE, UsageError, REPORTERS } from './options.js';
export type { ContractOptions, ReporterName } from './options.js';
export { parseConfig, readConfigFile, mergeConfigs, ConfigError } from './config.js';
export { configFromSeed, startEmbeddedSandbox } from './embedded.js';
export type { EmbeddedSandbox } from './embedded.js';
export { CHECKS, API_WIDE, checkInfo } from './checks/catalogue.js';
export type { CheckId, CheckInfo } from './checks/catalogue.js';
export { renderText } from './report/text.js';
export { renderJson } from './report/json.js';
export { renderJunit } from './report/junit.js';
export { toCurl } from './report/curl.js';
export type { Report, OperationReport, CheckSummary, Failure, Coverage, CoverageRow } from './report/model.js';
export type { CheckOutcome, ConfigKey, ConfigFixtures, ContractConfig, ExchangeSummary, Profile, RateSetting } from './model.js';
export { createRedactor } from './redact.js';
export { loadSpec } from './spec.js';
