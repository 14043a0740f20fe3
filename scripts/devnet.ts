/**
 * The sandbox devnet the server started (run: npm run devnet -- <command>). It outlives the
 * server, so that stopping or crashing `npm run dev` / `npm start` keeps the chain and its
 * payments; this stops it for good. Uses the server's DEVNET_STATE_FILE (default .data/devnet.json).
 *
 *   status   which devnet is recorded, and whether it still answers as that chain
 *   stop     stop it (the next server starts a fresh chain; the gateway treats it as a devnet restart)
 */
import { devnetLogFile, liveRecordedDevnet, readDevnetRecord, stopRecordedDevnet } from "@/lib/chains/devnet-record";
import { env } from "@/lib/env";

const usage = "usage: npm run devnet -- status | stop   (npm run devnet:stop)";

async function run(command: string | undefined): Promise<void> {
  const stateFile = env.DEVNET_STATE_FILE;
  if (command === "status") {
    const record = readDevnetRecord(stateFile);
    if (!record) {
      console.log(`No devnet recorded in ${stateFile}.`);
      return;
    }
    const live = await liveRecordedDevnet(stateFile);
    console.log(
      `${live ? "Running" : "Not running (recorded, but not answering as that chain)"}: pid ${record.pid}, ${record.rpcUrl}, chain id ${record.chainId}, ` +
        `genesis ${record.genesisHash}, started ${record.startedAt}; log ${devnetLogFile(stateFile)}`,
    );
    return;
  }
  if (command === "stop") {
    const outcome = await stopRecordedDevnet(stateFile);
    console.log(outcome === "stopped" ? `Stopped the sandbox devnet recorded in ${stateFile}.` : `No running sandbox devnet recorded in ${stateFile}.`);
    return;
  }
  throw new Error(usage);
}

run(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
