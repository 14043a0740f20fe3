/** react-query keys of the payment page. */
export const payQueryKeys = {
  order: (orderId: string) => ["pay", "order", orderId] as const,
};
