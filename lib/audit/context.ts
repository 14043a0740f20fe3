import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Who is acting in the current request, for the audit log. withApi (after authentication) and the
 * dashboard's action wrappers set it, so a use-case records the actor and address of whichever
 * caller ran it without every signature carrying them. Jobs and the operator CLI run without one:
 * their entries say `system`.
 */
export interface AuditActor {
  kind: "access_token" | "api_key" | "session" | "public" | "system";
  /** The username, or the API key's name and prefix. */
  label: string | null;
  clientIp: string | null;
  /** The browser or client (User-Agent), kept for the sessions page. */
  userAgent?: string | null;
  /** Where a sign-in happens: the dashboard's form or the API (the default). */
  via?: "api" | "dashboard";
}

const systemActor: AuditActor = { kind: "system", label: null, clientIp: null };
const storage = new AsyncLocalStorage<AuditActor>();

export function runAsActor<T>(actor: AuditActor, body: () => Promise<T>): Promise<T> {
  return storage.run(actor, body);
}

/** Names the actor once it is known (withApi learns the principal after the request started). */
export function identifyActor(update: Partial<AuditActor>): void {
  const current = storage.getStore();
  if (current) Object.assign(current, update);
}

export function currentActor(): AuditActor {
  return storage.getStore() ?? systemActor;
}
