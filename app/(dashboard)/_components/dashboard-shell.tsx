import Link from "next/link";
import type { ReactNode } from "react";
import { MainNav } from "./main-nav";
import { SignOutButton } from "./sign-out-button";
import { WorkspaceScope } from "./workspace-scope";
import { WorkspaceSwitcher } from "./workspace-switcher";

/** The dashboard's frame: product name, workspace switcher, who is signed in, the page navigation, the page. */
export function DashboardShell({ email, name, children }: { email: string; name: string | null; children: ReactNode }) {
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="shell-header">
        <div className="shell-bar">
          <Link href="/" className="shell-brand" aria-label="Signalbox, deliveries">
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
          <WorkspaceSwitcher />
          <div className="shell-user">
            <span className="shell-email" title={name ?? undefined}>
              {email}
            </span>
            <SignOutButton />
          </div>
        </div>
        <MainNav />
      </header>
      <main id="main" className="shell-main" tabIndex={-1}>
        <WorkspaceScope>{children}</WorkspaceScope>
      </main>
    </div>
  );
}
