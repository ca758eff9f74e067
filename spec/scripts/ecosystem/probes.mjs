// Type probes compiled with each generator's output: they fail under tsc when a generator types
// the error code as a plain string or misses an operation's documented success type.
export const probes = {};
