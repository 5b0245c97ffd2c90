import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Signalbox", template: "%s · Signalbox" },
  description: "Self-hostable data API: webhook inbox, enrichment and video details.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

// Each area brings its own header: the dashboard shell, the sign-in pages, and the public docs.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
