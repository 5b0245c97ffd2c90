import { nextAuthRoute } from "@/lib/api/next-auth-route";

// /api/auth/* — next-auth's sign-in, sign-out, session and CSRF endpoints for the dashboard (lib/api/next-auth-route.ts).
export { nextAuthRoute as GET, nextAuthRoute as POST };
