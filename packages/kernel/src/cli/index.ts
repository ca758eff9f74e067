// @svc/server-kernel/cli: what the servers' command lines share (svc-sandbox, svc-mock, the docs
// server). Not in the package's root: a library user never needs process-level start-up.
export { Cli } from './cli.js';
export { choosePort, type PortChoice, type PortSources, portUsage } from './port.js';
