import type { Metadata } from "next";
import Link from "next/link";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { authOptions } from "@/lib/auth/next-auth";
import { env } from "@/lib/env";
import { enabledOAuthProviders } from "../_lib/oauth-providers";
import { safeCallbackPath, signInErrorMessage } from "../_lib/sign-in";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl);
  const session = (await getServerSession(authOptions())) as { userId?: string | null } | null;
  if (session?.userId) redirect(callbackPath);

  return (
    <div className="auth-grid">
      <section className="auth-intro" aria-labelledby="intro-title">
        <h1 id="intro-title">Signalbox</h1>
        <p className="auth-lead">A self-hostable data API you run yourself.</p>
        <ul className="auth-points">
          <li>
            <strong>Webhook inbox</strong> that never loses a delivery: give senders an ingest URL, read and acknowledge
            what arrived, here or through the API.
          </li>
          <li>
            <strong>Enrichment</strong> of companies and people, priced per call, with a test mode that costs nothing.
          </li>
          <li>
            <strong>One API key scheme</strong> for all of it: <code>Authorization: Bearer sbx_live_…</code>
          </li>
        </ul>
        <p>
          Every operation is described in the <Link href="/docs">API reference</Link>, generated from the contracts that
          validate each request.
        </p>
      </section>
      <section className="card auth-card" aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Sign in</h2>
        <p className="muted small">
          The first start of the server (<code>npm start</code>) printed a demo user&apos;s email and password.
        </p>
        <SignInForm
          callbackPath={callbackPath}
          initialError={signInErrorMessage(params.error)}
          providers={enabledOAuthProviders()}
        />
        <p className="auth-switch">
          {env().SIGNUP === "open" ? (
            <>
              New here? <Link href="/sign-up">Create an account</Link>
            </>
          ) : (
            "New here? Ask a workspace owner for an invitation link."
          )}
        </p>
      </section>
    </div>
  );
}
