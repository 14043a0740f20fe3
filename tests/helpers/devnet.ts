import { afterAll, beforeAll } from "vitest";
import { createTestClient, createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { findBlockchainBySlug, setDevnetRpcUrl, type Blockchain } from "@/lib/chains/catalog";
import { devnetChain, startDevnet, type Devnet } from "@/lib/chains/devnet";
import { ensureGatewayContracts } from "@/lib/chains/sandbox-devnet";
import { timed } from "./profile";

/** Starts this file's own hardhat devnet on a free port, deploys the gateway contracts and points the sandbox catalog at it. */
export function setupTestDevnet() {
  let devnet: Devnet | undefined;
  beforeAll(async () => {
    devnet = await timed("devnet: start", () => startDevnet());
    await timed("devnet: deploy contracts", () => ensureGatewayContracts(devnet!.rpcUrl));
    setDevnetRpcUrl(devnet.rpcUrl);
  });
  afterAll(async () => {
    setDevnetRpcUrl(undefined);
    await timed("devnet: stop", async () => devnet?.stop());
  });
  const handle = {
    get devnet(): Devnet {
      if (!devnet) throw new Error("devnet not started");
      return devnet;
    },
    get rpcUrl(): string {
      return handle.devnet.rpcUrl;
    },
    chain(slug = "base"): Blockchain {
      return findBlockchainBySlug(slug)!;
    },
    testClient() {
      return createTestClient({ mode: "hardhat", chain: devnetChain, transport: http(handle.rpcUrl) });
    },
    wallet(privateKey: Hex) {
      return createWalletClient({ account: privateKeyToAccount(privateKey), chain: devnetChain, transport: http(handle.rpcUrl) });
    },
    /** Replaces the devnet with a fresh one on the same port (a restart: new genesis, empty state). */
    async restart(): Promise<void> {
      const port = handle.devnet.port;
      await timed("devnet: restart", async () => {
        await handle.devnet.stop();
        devnet = await startDevnet({ port });
        await ensureGatewayContracts(devnet.rpcUrl);
      });
    },
  };
  return handle;
}

export type TestDevnet = ReturnType<typeof setupTestDevnet>;
export type { Address };
