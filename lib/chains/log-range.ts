/**
 * Providers refuse an eth_getLogs range each in their own words. What a refusal says to do next:
 * ask at most `maxBlocks` blocks (a stated block-range limit, remembered for the provider), end
 * at `suggestedTo` (Alchemy names a range that works), or just ask for fewer blocks (a result
 * count or response size exceeded: depends on this range's traffic, so not remembered).
 */
export interface LogRangeAdvice {
  kind: "blockRange" | "resultCount";
  maxBlocks: bigint | null;
  suggestedTo: bigint | null;
}

function errorText(error: unknown): string {
  const e = error as { details?: string; shortMessage?: string; message?: string; cause?: unknown };
  const own = `${e?.details ?? ""} ${e?.shortMessage ?? ""} ${e?.message ?? String(error)}`;
  return e?.cause && e.cause !== error ? `${own} ${errorText(e.cause)}` : own;
}

const resultCountPatterns = [
  /log response size exceeded/i, // Alchemy
  /query returned more than \d[\d,]* results/i, // Infura
  /response size (?:is )?(?:too large|exceeded|should not greater)/i,
  /too many (?:logs|results)/i,
  /logs? (?:matched|returned) (?:by query )?exceeds? (?:limit|max)/i,
];

const blockRangePatterns: Array<[RegExp, number | null]> = [
  [/eth_getLogs is limited to (?:a )?([\d,]+) (?:block )?range/i, 1], // QuickNode
  [/exceed(?:s|ed)? maximum block range:? ?([\d,]+)/i, 1], // geth-based RPCs
  [/block range (?:is )?(?:limited to|must not exceed|cannot exceed|max(?:imum)? (?:is )?)\s*([\d,]+)/i, 1],
  [/ranges? over ([\d,]+) blocks (?:is|are) not supported/i, 1],
  [/maximum (?:block )?range (?:is |of )?([\d,]+)/i, 1],
  [/block range (?:is )?too (?:wide|large|big)/i, null], // Ankr and others
  [/block range limit exceeded|range (?:is )?too large|exceeds? (?:the )?(?:max(?:imum)?|block) range/i, null],
];

/** What a provider's eth_getLogs refusal asks for; null when the error is not a range refusal. */
export function logRangeAdvice(error: unknown): LogRangeAdvice | null {
  const text = errorText(error);
  if (resultCountPatterns.some((pattern) => pattern.test(text))) {
    const suggested = /this block range should work: \[(0x[0-9a-f]+),\s*(0x[0-9a-f]+)\]/i.exec(text);
    return { kind: "resultCount", maxBlocks: null, suggestedTo: suggested ? BigInt(suggested[2]!) : null };
  }
  for (const [pattern, group] of blockRangePatterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    const limit = group !== null && match[group] ? BigInt(match[group].replace(/,/g, "")) : null;
    return { kind: "blockRange", maxBlocks: limit !== null && limit > 0n ? limit : null, suggestedTo: null };
  }
  return null;
}

export function isLogRangeRefusal(error: unknown): boolean {
  return logRangeAdvice(error) !== null;
}
