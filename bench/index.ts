import { runAuthBench } from "./auth";

/** `npm run bench`: every benchmark in turn, or only those named on the command line (e.g. `npm run bench -- auth`). */
const benches: Record<string, () => Promise<void>> = {
  auth: runAuthBench,
};

async function main() {
  const wanted = process.argv.slice(2);
  for (const [name, run] of Object.entries(benches)) {
    if (wanted.length && !wanted.includes(name)) continue;
    await run();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
