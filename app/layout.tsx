import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Signalbox", template: "%s · Signalbox" },
  description: "Self-hostable data API: webhook inbox, enrichment and video details.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
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
      </body>
    </html>
  );
}
