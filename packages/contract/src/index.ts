// @svc/contract: the contract tests of the Team Communications Service API, as a library.

export type { CheckId, CheckInfo } from './catalogue.js';
export { API_WIDE, CHECKS, checkInfo } from './catalogue.js';
export { ConfigError, mergeConfigs, parseConfig, readConfigFile } from './config.js';
export type { EmbeddedSandbox } from './embedded.js';
export { configFromSeed, startEmbeddedSandbox, withScopeKeys } from './embedded.js';
export type { MergeOptions } from './merge.js';
export { mergeShards } from './merge.js';
export type { ContractOptions, MergeCliOptions, ProxyCliOptions } from './options.js';
export { parseCli, parseRate, USAGE } from './options.js';
export type { ProxyOptions, RunningProxy } from './proxy.js';
export { startProxy } from './proxy.js';
export type { ProxyRunOptions, ProxyRunResult } from './proxy-run.js';
export { runProxy } from './proxy-run.js';
export { createRedactor } from './redact.js';
export type { ReplayOptions, ReplayResult } from './replay/replay.js';
export { toCurl } from './report/curl.js';
export { renderJunit } from './report/junit.js';
export type { CheckSummary, Coverage, CoverageRow, Failure, OperationReport, Report } from './report/model.js';
export { renderText } from './report/text.js';
export { renderJson } from './report/write.js';
export type { RunResult } from './run.js';
export { API_KEY_ENV, DEFAULT_OUTPUT, runContract, runReplay } from './run.js';
export type { Shard } from './shard.js';
export { loadSpec } from './spec.js';
export type { ReporterName } from './tool.js';
export { DEFAULT_MAX_SKIPPED, REPORTERS, UsageError } from './tool.js';
export type {
  CheckOutcome,
  ConfigFixtures,
  ConfigKey,
  ContractConfig,
  ExchangeSummary,
  KeyKind,
  Profile,
  RateSetting,
  SkipKind,
} from './types.js';
