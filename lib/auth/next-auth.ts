import type { NextAuthOptions } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { isDatabaseUnavailable } from "@/lib/errors";
import { env } from "@/lib/env";
import { sameOriginPath } from "./same-origin";
import { signInSource } from "./sign-in-source";
import { isSessionRevoked, newSessionId, revokeSession, SESSION_MAX_AGE_SECONDS } from "./session-revocation";
import { authenticateUser, findOrCreateOAuthUser, oauthSignInAllowed } from "./users";

function oauthProviders() {
  const config = env();
  return [
    ...(config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET
      ? [GitHubProvider({ clientId: config.GITHUB_CLIENT_ID, clientSecret: config.GITHUB_CLIENT_SECRET })]
      : []),
    ...(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? [GoogleProvider({ clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET })]
      : []),
  ];
}

/**
 * Thrown by the jwt callback for a session that was signed out (or that predates session ids and so cannot be signed
 * out): next-auth then answers as if no cookie had been sent, and /api/auth/session clears the cookie.
 */
export class SessionRevokedError extends Error {
  constructor() {
    super("This session was signed out.");
    this.name = "SessionRevokedError";
  }
}

/** What `getServerSession(authOptions())` returns for a signed-in user. */
export interface DashboardSession {
  user?: { email?: string | null; name?: string | null };
  /** Null when the session could not be checked (see `sessionUnavailable`). */
  userId: string | null;
  /** The session's id (the `sid` claim): a handle for revocation, not a credential. */
  sessionId: string | null;
  /** The database could not say whether the session was signed out: refuse it for now, with 503 rather than 401. */
  sessionUnavailable: boolean;
}

/** The token of a session that is still signed in; throws SessionRevokedError for one that was signed out. */
async function checkedToken(token: JWT): Promise<JWT> {
  if (typeof token.sid !== "string") throw new SessionRevokedError();
  try {
    if (await isSessionRevoked(token.sid)) throw new SessionRevokedError();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    return { ...token, sessionUnverified: true };
  }
  const { sessionUnverified: _ignored, ...checked } = token;
  return checked;
}

/**
 * Dashboard sign-in. Email + password (scrypt, lib/auth/password.ts) always; GitHub and Google when their client ids
 * are configured. Sessions are signed JWT cookies (what next-auth needs for credentials); the user id and a session id
 * are in the token. Every session read (pages, /v1 with the dashboard header, /api/auth/session) refuses a session that
 * was signed out (lib/auth/session-revocation.ts), and the /v1 routes re-check workspace membership in the database.
 */
export function authOptions(): NextAuthOptions {
  return {
    secret: env().SIGNALBOX_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          if (!credentials?.email || !credentials.password) return null;
          const source = signInSource(request.headers);
          const user = await authenticateUser(credentials.email, credentials.password, source);
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        },
      }),
      ...oauthProviders(),
    ],
    callbacks: {
      // After sign-in or sign-out: a callback on our origin as the URL parser (and so the browser) reads it, else home.
      // next-auth's default kept `/<TAB>/host`-style paths as given and threw (a 500) on anything it could not parse.
      redirect({ url, baseUrl }) {
        return `${baseUrl}${sameOriginPath(url, baseUrl) ?? "/"}`;
      },
      // The sign-up policy (SIGNUP) binds OAuth too: an unknown email only gets an account when sign-up is open.
      async signIn({ user, account }) {
        if (!account || account.provider === "credentials") return true;
        return Boolean(user.email) && (await oauthSignInAllowed(user.email!));
      },
      async jwt({ token, user, account }) {
        // `user` and `account` are only passed at sign-in; every later read of the cookie is checked.
        if (!user && !account) return checkedToken(token);
        if (account && account.provider !== "credentials") {
          // OAuth: our own user, found (or created) by the provider's email.
          if (token.email) token.userId = await findOrCreateOAuthUser({ email: token.email, name: token.name });
        } else if (user?.id) {
          token.userId = user.id;
        }
        token.sid = newSessionId();
        return token;
      },
      session({ session, token }) {
        const unavailable = token.sessionUnverified === true;
        const extra: Omit<DashboardSession, "user"> = {
          userId: !unavailable && typeof token.userId === "string" ? token.userId : null,
          sessionId: typeof token.sid === "string" ? token.sid : null,
          sessionUnavailable: unavailable,
        };
        return { ...session, ...extra };
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sid === "string") await revokeSession({ sessionId: token.sid });
      },
    },
    logger: {
      error(code, metadata) {
        // A signed-out cookie presented again is an expected refusal, not an error worth a stack trace.
        if (metadata instanceof SessionRevokedError) return;
        const message = metadata instanceof Error ? metadata.message : metadata.error?.message;
        console.error(
          `[next-auth][error][${code}]`,
          `\nhttps://next-auth.js.org/errors#${code.toLowerCase()}`,
          message,
          metadata,
        );
      },
    },
  };
}
