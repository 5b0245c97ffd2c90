"use client";

import { useQueryClient } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { selectWorkspace } from "@/lib/client/dashboard-client";
import type { SignUpField, SignUpResult } from "../_lib/sign-up";
import { signUpAction } from "./actions";

type Values = Record<SignUpField, string>;

/**
 * A new account, then signed in and into its workspace. An invitation's page passes its own `action` (the token
 * bound), the invitation's `email` (shown read-only) and, for an invitation into a workspace, no workspace name.
 */
export function SignUpForm({
  minPasswordLength,
  action = signUpAction,
  email,
  askWorkspaceName = true,
}: {
  minPasswordLength: number;
  action?: (values: Values) => Promise<SignUpResult>;
  email?: string;
  askWorkspaceName?: boolean;
}) {
  const [fieldErrors, setFieldErrors] = useState<Partial<Values>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const router = useRouter();
  const queryClient = useQueryClient();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values: Values = {
      name: String(form.get("name") ?? ""),
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      workspaceName: String(form.get("workspaceName") ?? ""),
    };
    setPending(true);
    setMessage(null);
    try {
      const result = await action(values);
      if (!result.ok) {
        setFieldErrors(result.fieldErrors);
        setMessage(result.message);
        setPending(false);
        return;
      }
      setFieldErrors({});
      // Start in the new workspace.
      selectWorkspace(result.workspaceId);
      const signedIn = await signIn("credentials", { email: values.email, password: values.password, redirect: false });
      if (signedIn?.ok && !signedIn.error) {
        queryClient.clear();
        router.replace("/");
        return;
      }
      setMessage("Your account was created, but signing in failed. Sign in with your email and password.");
    } catch {
      setMessage("The server could not be reached. Try again.");
    }
    setPending(false);
  }

  const describedBy = (field: SignUpField, hint?: string) =>
    [hint, fieldErrors[field] ? `sign-up-${field}-error` : undefined].filter(Boolean).join(" ") || undefined;

  return (
    <form className="form" onSubmit={(event) => void handleSubmit(event)}>
      <div className="field">
        <label htmlFor="sign-up-name">
          Your name <span className="muted">(optional)</span>
        </label>
        <input
          id="sign-up-name"
          name="name"
          autoComplete="name"
          maxLength={100}
          className="input"
          aria-invalid={!!fieldErrors.name}
          aria-describedby={describedBy("name")}
        />
        <FieldError field="name" errors={fieldErrors} />
      </div>
      <div className="field">
        <label htmlFor="sign-up-email">Email</label>
        <input
          id="sign-up-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          readOnly={email !== undefined}
          defaultValue={email}
          className="input"
          aria-invalid={!!fieldErrors.email}
          aria-describedby={describedBy("email")}
        />
        <FieldError field="email" errors={fieldErrors} />
      </div>
      <div className="field">
        <label htmlFor="sign-up-password">Password</label>
        <input
          id="sign-up-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minPasswordLength}
          className="input"
          aria-invalid={!!fieldErrors.password}
          aria-describedby={describedBy("password", "sign-up-password-hint")}
        />
        <p id="sign-up-password-hint" className="hint">
          At least {minPasswordLength} characters.
        </p>
        <FieldError field="password" errors={fieldErrors} />
      </div>
      {askWorkspaceName ? (
        <div className="field">
          <label htmlFor="sign-up-workspace">Workspace name</label>
          <input
            id="sign-up-workspace"
            name="workspaceName"
            required
            maxLength={100}
            autoComplete="organization"
            className="input"
            aria-invalid={!!fieldErrors.workspaceName}
            aria-describedby={describedBy("workspaceName")}
          />
          <FieldError field="workspaceName" errors={fieldErrors} />
        </div>
      ) : null}
      {message ? (
        <p role="alert" className="alert">
          {message}
        </p>
      ) : null}
      <button type="submit" className="button button-primary button-block" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </button>
    </form>
  );
}

function FieldError({ field, errors }: { field: SignUpField; errors: Partial<Values> }) {
  const message = errors[field];
  return message ? (
    <p id={`sign-up-${field}-error`} className="field-error">
      {message}
    </p>
  ) : null;
}
