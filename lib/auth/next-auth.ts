import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { env } from "@/lib/env";
import { authenticateUser, findOrCreateOAuthUser } from "./users";

function oauthProviders() {
  const config = env();
  return [
    ...(config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET ? [GitHubProvider({ clientId: config.GITHUB_CLIENT_ID, clientSecret: config.GITHUB_CLIENT_SECRET })] : []),
    ...(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET ? [GoogleProvider({ clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET })] : []),
  ];
}

/**
 * Dashboard sign-in. Email + password (scrypt, lib/auth/password.ts) always; GitHub and Google when their client ids
 * are configured. Sessions are signed JWT cookies (what next-auth needs for credentials); the user id is in the token,
 * and every request re-checks workspace membership in the database.
 */
export function authOptions(): NextAuthOptions {
  return {
    secret: env().SIGNALBOX_SECRET,
    session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
    pages: { signIn: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const user = await authenticateUser(credentials.email, credentials.password);
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        },
      }),
      ...oauthProviders(),
    ],
    callbacks: {
      async jwt({ token, user, account }) {
        if (account && account.provider !== "credentials") {
          // OAuth: our own user, found (or created) by the provider's email.
          if (token.email) token.userId = await findOrCreateOAuthUser({ email: token.email, name: token.name });
        } else if (user?.id) {
          token.userId = user.id;
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, userId: typeof token.userId === "string" ? token.userId : null };
      },
    },
  };
}
