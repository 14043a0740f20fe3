"use client";

import type { ReactNode } from "react";
import { WagmiProvider, type Config } from "wagmi";

/** WagmiProvider for the payment page's wallet part; it shares the page's QueryClientProvider. */
export function PayWagmiProvider({ config, children }: { config: Config; children: ReactNode }) {
  return (
    <WagmiProvider config={config} reconnectOnMount={false}>
      {children}
    </WagmiProvider>
  );
}
