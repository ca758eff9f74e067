// @svc/server-kernel/testing: the test harness for servers built on the kernel (see harness.ts).
export { KernelHarness, type SendOptions, type Sent, type Transport } from './harness.js';
