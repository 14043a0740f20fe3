/**
 * How many confirmations a wallet may ask for: 10000 blocks is about a day and a half on Ethereum,
 * hours on L2s. The chain engine sizes its reorg re-check window by the largest.
 */
export const minConfirmationThreshold = 1;
export const maxConfirmationThreshold = 10_000;
