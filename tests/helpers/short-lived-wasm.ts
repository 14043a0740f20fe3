/**
 * V8 flags for the suite's short-lived processes that open PGlite: `next start` children, files in a process of
 * their own (vitest.config.ts), the CLI and writer children. PGlite is PostgreSQL compiled to WebAssembly; V8
 * compiles it with its baseline compiler (Liftoff) and then compiles the hot functions again with its optimizing
 * one (TurboFan), on background threads. For a process that lives seconds that second compilation costs more CPU
 * than its faster code saves: opening the suite's migrated PGlite and running 200 queries took 2.6 s of CPU by
 * default and 1.0–1.1 s with these flags; 10,000 queries still 7.8 against 6.2 s. The files in a process of
 * their own on PGlite: 51.6 → 36.6 s of CPU; three PGlite fault files (their servers): 54.7 → 40.8 s. The shared
 * workers, which live for a whole project, keep the default (no difference measured there). The whole vitest run,
 * both databases: 656 → 561 s of CPU, 435 → 382 s. Only how V8 compiles WebAssembly changes, not what runs: no
 * JavaScript is compiled differently, and a process on PostgreSQL runs no WebAssembly.
 */
export const shortLivedWasmFlags = ["--liftoff-only", "--wasm-lazy-compilation"];
