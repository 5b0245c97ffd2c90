import Link from "next/link";
import type { ReactNode } from "react";

// The public pages' header (the dashboard and the sign-in pages have their own).
export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="site-header">
        <nav aria-label="Main">
          <Link href="/" className="brand">
            Signalbox
          </Link>
          <Link href="/docs">API reference</Link>
          <a href="/v1/openapi.json">OpenAPI</a>
        </nav>
      </header>
      {children}
    </>
  );
}
