import { seamAwareMatcher } from "@/lib/providers/first-party/website/seam-matches";
import type { TextRun } from "@/lib/providers/first-party/website/text-runs";

/*
 * Prose that names local parts once and the domain once: "All our addresses end in @verein.example; write to legal@ or
 * press@", "Kontakt: info@ / presse@ – jeweils @verein.example". Within one block (paragraph, cell, list item) that
 * announces exactly one domain, every local part written with a bare trailing "@" gets that domain. Nothing is read
 * across blocks, and a block announcing two domains is ambiguous, so it gives nothing.
 */

const LOCAL_PART = "[a-z0-9](?:[a-z0-9._%+-]{0,62}[a-z0-9_%+-])?";
const DOMAIN = "(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.){1,8}[a-z]{2,24}";
/** A standalone "@domain": not the tail of an address, not a handle in a URL path ("medium.com/@acme"). */
const ANNOUNCED_DOMAIN = new RegExp(`(?<![a-z0-9._%+/@-])@(${DOMAIN})(?![a-z0-9-]|[./@][a-z0-9])`, "gi");
/** "legal@" with nothing after the "@" ("jquery@3.7.1" and "jane@acme.example" have something). */
const BARE_LOCAL_PART = new RegExp(`(?<![a-z0-9._%+/@-])(${LOCAL_PART})@(?![a-z0-9-]|\\.[a-z0-9])`, "gi");

const bareLocalParts = seamAwareMatcher(BARE_LOCAL_PART);

export function sharedDomainEmails(runs: TextRun[]): string[] {
  return blocksOf(runs).flatMap((block) => {
    const domains = new Set(
      block.flatMap((run) => [...run.text.matchAll(ANNOUNCED_DOMAIN)].map(([, domain]) => domain!.toLowerCase())),
    );
    if (domains.size !== 1) return [];
    const [domain] = domains;
    return block.flatMap((run) => bareLocalParts(run).map(([, local]) => `${local!}@${domain!}`));
  });
}

/** Runs grouped by block; a block's runs are consecutive. */
function blocksOf(runs: TextRun[]): TextRun[][] {
  const blocks: TextRun[][] = [];
  for (const run of runs) {
    const last = blocks.at(-1);
    if (last !== undefined && last[0]!.block === run.block) last.push(run);
    else blocks.push([run]);
  }
  return blocks;
}
