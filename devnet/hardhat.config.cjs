// Local devnet for tests and the sandbox: started by lib/chains/devnet.ts with `hardhat node`.
// No Solidity is compiled here; contracts are built by scripts/build-contracts.ts.

/** @type {import("hardhat/config").HardhatUserConfig} */
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      accounts: {
        mnemonic: "test test test test test test test test test test test junk",
        count: 20,
        accountsBalance: "10000000000000000000000",
      },
      mining: { auto: true, interval: 0 },
      // Simulated confirmations mine many blocks at once; letting them share a timestamp keeps
      // chain time with the wall clock (lateness is judged by block time).
      allowBlocksWithSameTimestamp: true,
      allowUnlimitedContractSize: false,
      // A zero base fee that stays zero on an idle chain keeps gas accounting in tests simple:
      // a transaction costs gasUsed * priority fee only.
      initialBaseFeePerGas: 0,
    },
  },
  paths: {
    cache: "./cache",
    artifacts: "./artifacts",
  },
};
