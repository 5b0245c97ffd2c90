import type { Metadata } from "next";
import Link from "next/link";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { authOptions } from "@/lib/auth/next-auth";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/users";
import { env } from "@/lib/env";
import { SIGN_UP_CLOSED } from "../_lib/sign-up";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage() {
  const session = (await getServerSession(authOptions())) as { userId?: string | null } | null;
  if (session?.userId) redirect("/");

  if (env().SIGNUP !== "open") {
    return (
      <section className="card auth-card auth-card-single" aria-labelledby="sign-up-title">
        <h1 id="sign-up-title">Sign-up is closed</h1>
        <p>{SIGN_UP_CLOSED}</p>
        <p className="auth-switch">
          Have an account? <Link href="/sign-in">Sign in</Link>
        </p>
      </section>
    );
  }

  return (
    <section className="card auth-card auth-card-single" aria-labelledby="sign-up-title">
      <h1 id="sign-up-title">Create an account</h1>
      <p className="muted small">You get a workspace of your own for webhook endpoints, API keys and usage.</p>
      <SignUpForm minPasswordLength={MIN_PASSWORD_LENGTH} />
      <p className="auth-switch">
        Have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </section>
  );
}
