"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Deliveries" },
  { href: "/endpoints", label: "Endpoints" },
  { href: "/api-keys", label: "API keys" },
  { href: "/usage", label: "Usage" },
] as const;

function isCurrent(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

export function MainNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="shell-nav">
      <ul>
        {LINKS.map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={isCurrent(pathname, link.href) ? "page" : undefined}>
              {link.label}
            </Link>
          </li>
        ))}
        <li className="shell-nav-aside">
          <Link href="/docs">API reference</Link>
        </li>
      </ul>
    </nav>
  );
}
