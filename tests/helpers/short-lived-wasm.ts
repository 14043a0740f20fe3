/**
 * V8 flags for the suite's short-lived processes that open PGlite: `next start` children, files in a process of
 * their own on PGlite (vitest.config.ts), the CLI and writer children. PGlite is PostgreSQL compiled to
 * WebAssembly; V8 compiles it with its baseline compiler (Liftoff), then compiles the hot functions again with its
 * optimizing one (TurboFan) on background threads. A process that lives seconds pays for that second compilation
 * and hardly runs its result: opening the migrated snapshot and running 200 queries took 2.6 s of CPU by default,
 * 1.0–1.1 s with these flags. The shared workers live for a whole project and keep the default (no difference
 * measured there). Only how V8 compiles WebAssembly changes, not what runs. Figures: bench/HISTORY.md, "The CPU
 * each file uses".
 */
export const shortLivedWasmFlags = ["--liftoff-only", "--wasm-lazy-compilation"];
