"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { WagmiProvider, type Config } from "wagmi";

/**
 * WagmiProvider for the payment page's wallet part, with the react-query client wagmi's hooks
 * need: both load only once the customer connects a wallet (the page's status polling needs neither).
 */
export function PayWagmiProvider({ config, children }: { config: Config; children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }));
  return (
    <WagmiProvider config={config} reconnectOnMount={false}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </WagmiProvider>
  );
}
