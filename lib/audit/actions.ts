/** What the audit log records (issue 28 item 4); the dashboard's filter lists these. */
export const auditActions = {
  "auth.login_succeeded": "Signed in",
  "auth.login_failed": "Sign-in failed (wrong password)",
  "auth.second_factor_failed": "Sign-in failed (wrong second-factor code)",
  "auth.session_revoked": "Session revoked",
  "auth.password_reset": "Password reset by email",
  "second_factor.enabled": "Two-factor authentication enabled",
  "second_factor.disabled": "Two-factor authentication disabled",
  "second_factor.recovery_code_used": "Recovery code used",
  "second_factor.passkey_added": "Passkey added",
  "second_factor.passkey_removed": "Passkey removed",
  "second_factor.passkey_used": "Passkey used",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "wallet.created": "Payout wallet added",
  "wallet.updated": "Payout wallet changed",
  "webhook_endpoint.created": "Webhook endpoint added",
  "webhook_endpoint.updated": "Webhook endpoint changed",
  "webhook_endpoint.deleted": "Webhook endpoint deleted",
  "webhook_endpoint.secret_rotated": "Webhook endpoint secret rotated",
  "account.webhook_secret_rotated": "Account webhook secret rotated",
  "account.settings_updated": "Account settings changed",
  "account.plan_changed": "Plan changed",
} as const;
export type AuditAction = keyof typeof auditActions;
export const auditActionNames = Object.keys(auditActions) as [AuditAction, ...AuditAction[]];
