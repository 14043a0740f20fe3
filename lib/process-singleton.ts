/**
 * Values there must be one of per process: the database connection, the metrics registry, caches
 * and queues shared by every request, the job driver.
 *
 * A module-level `const` is not enough: Next loads a module more than once in one process (the
 * instrumentation hook and the routes are bundled apart, each route layer has its own copy, dev
 * reloads modules), and each copy would get its own: a second connection pool, a second metrics
 * registry that splits the counters, a kicker the routes never see. So the value lives on
 * `globalThis`, under `__gateway<Key>` (`database` → `__gatewayDatabase`), where every copy finds it.
 * tests/helpers/setup.ts empties the maps and sets among them before each test file.
 *
 * Every key is listed below with what it holds, and is used by one module only
 * (tests/unit/architecture/process-singletons.test.ts): the value's type is that module's to say.
 */
export const processSingletonKeys = {
  database: "the open database, opened on first use",
  metrics: "the Prometheus registry and its metrics",
  chainHeads: "the newest head each chain's watcher saw, for the metrics",
  credentialCache: "API keys and access tokens recently checked",
  authSecret: "the JWT signing key, read or created once",
  peerCapture: "whether node:http servers stamp each request with its socket's address",
  jobKicker: "the running job driver's kicker, which domain code kicks tasks through",
  localDriver: "the local job driver, once started",
  localKickerUndo: "the undo of the local driver's kicker registration",
  taskStates: "what each background task last did",
  taskClock: "tests: the clock task staleness is read against",
  taskGraceMs: "tests: the grace past a task's announced sleep before it counts as overdue",
  announcedHeads: "the newest head each chain's watcher announced",
  newHeadsSockets: "one newHeads WebSocket per provider URL, with the chains subscribed over it",
  lastBalanceCheck: "when each chain's tick last checked deposit balances",
  chainClients: "viem clients by chain and RPC URL",
  providerBudgets: "the request budgets shared by every client of one RPC provider",
  finalityHeads: "each chain's finalized head as last read",
  nativeBalances: "the last native-coin balances read per chain",
  unattributedBalance: "native coin on deposit addresses that no transfer explains, per chain",
  balanceCheckCursor: "where each chain's internal-deposit check goes on from",
  accountQueues: "one queue of sends per sending account (nonces in order)",
  devnetRpcUrl: "the sandbox devnet's RPC URL",
  sandboxDevnet: "the sandbox devnet, started or found once",
  devnetSnapshots: "the sandbox devnet's snapshots to revert to",
  simulatedMining: "orders whose simulated payment is still mining",
  relayConditions: "the gasless relayer's balance and gas price as last read, per chain",
  gaslessDomains: "whether each gasless token's DOMAIN_SEPARATOR() matched the catalog's EIP-712 domain",
} as const;

export type ProcessSingletonKey = keyof typeof processSingletonKeys;

const store = globalThis as unknown as Record<string, unknown>;

/** The `globalThis` property a key's value is kept under. */
export function processSingletonProperty(key: ProcessSingletonKey): string {
  return `__gateway${key[0]!.toUpperCase()}${key.slice(1)}`;
}

/** The process's value for `key`: made by `create` the first time any copy of the calling module asks, the same one after. */
export function processSingleton<T>(key: ProcessSingletonKey, create: () => T): T {
  const property = processSingletonProperty(key);
  return (store[property] ??= create()) as T;
}

/** A process-wide value that is set and cleared rather than made on first use. */
export interface ProcessSlot<T> {
  get(): T | undefined;
  /** Sets the value (undefined clears it) and returns it. */
  set<V extends T | undefined>(value: V): V;
}

/** The process's slot for `key` (see `processSingleton`). */
export function processSlot<T>(key: ProcessSingletonKey): ProcessSlot<T> {
  const property = processSingletonProperty(key);
  return {
    get: () => store[property] as T | undefined,
    set: (value) => (store[property] = value),
  };
}
