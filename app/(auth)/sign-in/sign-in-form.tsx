"use client";

import { useQueryClient } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { signInErrorMessage } from "../_lib/sign-in";
import type { OAuthProviderView } from "../_lib/oauth-providers";

export function SignInForm({
  callbackPath,
  initialError,
  providers,
}: {
  callbackPath: string;
  initialError: string | null;
  providers: OAuthProviderView[];
}) {
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);
  const errorId = useId();
  const router = useRouter();
  const queryClient = useQueryClient();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        redirect: false,
      });
      if (result?.ok && !result.error) {
        // Nothing cached under an earlier session in this tab may show for this one.
        queryClient.clear();
        router.replace(callbackPath);
        return;
      }
      setError(signInErrorMessage(result?.error ?? "unknown"));
    } catch {
      setError("The server could not be reached. Try again.");
    }
    setPending(false);
  }

  return (
    <>
      <form
        className="form"
        onSubmit={(event) => void handleSubmit(event)}
        aria-describedby={error ? errorId : undefined}
        noValidate={false}
      >
        <div className="field">
          <label htmlFor="sign-in-email">Email</label>
          <input
            id="sign-in-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            autoFocus
            className="input"
          />
        </div>
        <div className="field">
          <label htmlFor="sign-in-password">Password</label>
          <input
            id="sign-in-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            className="input"
          />
        </div>
        {error ? (
          <p id={errorId} role="alert" className="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button-primary button-block" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {providers.length > 0 ? (
        <div className="oauth">
          <p className="oauth-divider">
            <span>or</span>
          </p>
          {providers.map((provider) => (
            <button
              key={provider.id}
              type="button"
              className="button button-block"
              disabled={pending}
              onClick={() => void signIn(provider.id, { callbackUrl: callbackPath })}
            >
              Sign in with {provider.name}
            </button>
          ))}
        </div>
      ) : null}
    </>
  );
}
