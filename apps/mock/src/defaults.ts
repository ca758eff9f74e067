// Where the mock listens unless told otherwise (the sandbox has 4010; `pnpm mock` is 4011).
export const DEFAULT_PORT = 4011;
export const DEFAULT_HOST = '127.0.0.1';
