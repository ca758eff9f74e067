// A run or the proxy asked for something it cannot do (an unknown option, a URL with credentials):
// the CLI prints the message alone and exits 2; in code it is thrown before anything is sent.
export class UsageError extends Error {}
