"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCurrentUser } from "../_hooks/use-current-user";

const LINKS = [
  { href: "/", label: "Deliveries" },
  { href: "/endpoints", label: "Endpoints" },
  { href: "/api-keys", label: "API keys" },
  { href: "/usage", label: "Usage" },
  { href: "/members", label: "Members" },
] as const;

/** Shown to operators of the server only (GET /v1/me). */
const OPERATOR_LINK = { href: "/operator", label: "Operator" } as const;

function isCurrent(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

export function MainNav() {
  const pathname = usePathname();
  const operator = useCurrentUser().data?.user.operator === true;
  const links = operator ? [...LINKS, OPERATOR_LINK] : LINKS;
  return (
    <nav aria-label="Dashboard" className="shell-nav">
      <ul>
        {links.map((link) => (
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
