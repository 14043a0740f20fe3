import { handlers } from "@/lib/auth/next-auth";

// GET, POST /api/auth/{session,csrf,providers,signin,signout,callback}/… – next-auth's own endpoints.
// The spec's static routes (api/auth/login, register, token/refresh, verify) are sibling folders and win over this catch-all.
export const { GET, POST } = handlers;
