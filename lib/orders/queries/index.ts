// The order table's statements, by topic: one place to import them from.
export {
  findMerchantOrder,
  findMerchantOrderView,
  findOrderByPublicId,
  findOrderIdByNonce,
  findOrderScreening,
  findOrdersScreening,
  findSanctionsListDate,
  findPublicOrderView,
  listOrderPayers,
  lockMerchantOrder,
  lockOrder,
  setOrderRefundAddress,
  type OrderView,
  type RefundAddressSource,
} from "./lookups";
export { listOrders, orderSortKeyWidth, recentOrders, type OrderFilters } from "./list";
export { likePattern, searchOrders, textSearchExactCountBound, textSearchProbeRows, type OrderSearch } from "./search";
export {
  countOpenLinkOrders,
  insertOrderIfWalletMatches,
  insertOrderMethodAddresses,
  setAcceptedMethods,
  type OrderDraft,
  type OrderInsertOutcome,
} from "./create";
export {
  findOpenNativeAddresses,
  findOpenNativeOrders,
  findOrdersByDepositAddresses,
  findOrdersByMethodAddresses,
  findOrdersToEvaluate,
  flagOrderAtRisk,
  isAnyOrderDepositAddress,
  merchantDepositAddressesAmong,
  nextPendingDeadline,
  switchOrderMethod,
  transitionOrder,
} from "./lifecycle";
export {
  confirmedFiatTotals,
  confirmedUsdValue,
  foldAllOrderDayTotals,
  foldOrderDayTotals,
  hasPaidOrders,
  overviewSeries,
  reversedOrderTotals,
  type TokenDay,
  type TokenStatusCount,
} from "./totals";
export { exportOrdersBatch, type ExportOrderRow } from "./export";
