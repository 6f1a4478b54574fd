// The defaults the command line's usage names, in a module of their own: `billing-sim --version`,
// `--help`, a usage error, and the commands that need no simulator (contract against a server, proxy,
// scenario against an origin) start without loading the simulator, Express and faker (some 0.15 s of
// CPU of each start). index.ts, engine/sandboxes.ts and proxy/limits.ts export them from here.

/** The port `billing-sim serve` listens on by default. */
export const DEFAULT_PORT = 4010;
/** The address the simulator and the proxy bind by default: this machine only. */
export const DEFAULT_HOST = '127.0.0.1';
/** The seed of the default sandbox's fixtures and ids. */
export const DEFAULT_SEED = 1;
/** The port `billing-sim proxy` listens on by default, beside the simulator's 4010. */
export const DEFAULT_PROXY_PORT = 4011;
