"use client";

import { useSignOut } from "../_hooks/use-sign-out";

/** Signs out and goes to `destination` (the sign-in page unless told otherwise). */
export function SignOutButton({ destination, label = "Sign out" }: { destination?: string; label?: string }) {
  const { pending, signOut } = useSignOut();
  return (
    <button type="button" className="button button-small" onClick={() => void signOut(destination)} disabled={pending}>
      {pending ? "Signing out…" : label}
    </button>
  );
}
