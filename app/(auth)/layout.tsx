import Link from "next/link";
import type { ReactNode } from "react";

// Sign-in and sign-up: the product name, the form, and the way to the public API reference.
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth">
      <header className="auth-header">
        <Link href="/sign-in" className="shell-brand">
          <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
            <rect x="2" y="5" width="20" height="14" rx="3" fill="currentColor" opacity="0.15" />
            <path
              d="M3 8l9 6 9-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          Signalbox
        </Link>
        <Link href="/docs">API reference</Link>
      </header>
      <main className="auth-main">{children}</main>
    </div>
  );
}
