import { z } from "zod";

/**
 * What a store does with a payment whose payer fails screening (issue 56):
 * - record: the payment goes on as usual; the flag and a payment.flagged webhook say so;
 * - hold: no payment.confirmed until a member who manages the account releases it (audited);
 * - refund: held for good (it cannot be released); the order may be refunded while held.
 */
export const screeningActions = ["record", "hold", "refund"] as const;
export type ScreeningAction = (typeof screeningActions)[number];
export const screeningAction = z.enum(screeningActions);

/** A store that chose nothing holds: a regulated store must not ship before someone looked. */
export const defaultScreeningAction: ScreeningAction = "hold";

export function asScreeningAction(value: string | null | undefined): ScreeningAction {
  return (screeningActions as readonly string[]).includes(value ?? "") ? (value as ScreeningAction) : defaultScreeningAction;
}
