/**
 * When "Connect wallet" finds no browser wallet: the ways to pay that remain. Its own module (part
 * of the customer wording in customer-messages.ts), so the pay page's first load carries this one
 * sentence and not the whole error mapping.
 */
export const noBrowserWalletMessage =
  "No browser wallet was found on this device. Scan the QR code with your phone's wallet app, or copy the amount and the address into your wallet.";
