import { describe, expect, it } from "vitest";
import { CrawlFrontier, pageKey } from "@/lib/providers/first-party/website/crawl-frontier";
import type { LinkBucket, RankedLink } from "@/lib/providers/first-party/website/link-ranking";

const link = (path: string, bucket: LinkBucket, score: number): RankedLink => ({
  url: new URL(path, "http://acme.example"),
  bucket,
  score,
  depth: 1,
});
const paths = (links: readonly RankedLink[]) => links.map((taken) => taken.url.pathname);

describe("pageKey", () => {
  it("is one key for the apex and www., a trailing slash, an index file, the scheme and host case", () => {
    const keys = [
      "http://acme.example/team/",
      "https://www.acme.example/team",
      "http://WWW.ACME.example/team/index.html",
      "http://acme.example/team/index.php",
    ].map((href) => pageKey(new URL(href)));
    expect(new Set(keys)).toEqual(new Set(["acme.example/team"]));
    expect(pageKey(new URL("http://acme.example/team?page=2"))).not.toBe(pageKey(new URL("http://acme.example/team")));
    expect(pageKey(new URL("http://careers.acme.example/"))).not.toBe(pageKey(new URL("http://acme.example/")));
  });
});

describe("CrawlFrontier", () => {
  it("gives the best first, ties in the order found, and keeps a page's best rank", () => {
    const frontier = new CrawlFrontier();
    frontier.add(link("/a", "other", 20));
    frontier.add(link("/b", "other", 20));
    frontier.add(link("/contact", "contact", 100));
    frontier.add(link("/a/", "other", 30));
    frontier.add(link("/b", "other", 5));
    expect(paths(frontier.take(3))).toEqual(["/contact", "/a/", "/b"]);
    expect(frontier.size).toBe(0);
  });

  it("never gives a page twice, nor one read or visited", () => {
    const frontier = new CrawlFrontier();
    frontier.add(link("/team", "team", 95));
    frontier.markVisited(new URL("http://www.acme.example/about/"));
    frontier.add(link("/about", "about", 75));
    expect(paths(frontier.take(5))).toEqual(["/team"]);
    frontier.add(link("/team/", "team", 95));
    expect(frontier.take(5)).toEqual([]);
  });

  it("lets a kind past its cap compete at a lower score, so it takes only the budget nobody else wants", () => {
    const frontier = new CrawlFrontier();
    for (const name of ["ann", "bob", "cy", "di", "ed", "flo"]) frontier.add(link(`/staff/${name}`, "profile", 85));
    frontier.add(link("/locations", "locations", 60));
    frontier.add(link("/pricing", "other", 20));
    const taken = paths(frontier.take(8));
    expect(taken).toEqual([
      "/staff/ann",
      "/staff/bob",
      "/staff/cy",
      "/staff/di",
      "/locations",
      "/staff/ed",
      "/staff/flo",
      "/pricing",
    ]);
  });

  it("counts pages read against their kind's cap", () => {
    const frontier = new CrawlFrontier();
    frontier.recordRead(new URL("http://acme.example/contact"), "contact");
    frontier.recordRead(new URL("http://acme.example/contact-sales"), "contact");
    frontier.add(link("/contact-support", "contact", 100));
    frontier.add(link("/about", "about", 75));
    expect(paths(frontier.take(2))).toEqual(["/about", "/contact-support"]);
  });

  it("ranks another language's copy of a page already read below other pages", () => {
    const frontier = new CrawlFrontier();
    frontier.recordRead(new URL("http://acme.example/contact/"), "contact");
    frontier.add(link("/en/contact/", "contact", 100));
    frontier.add(link("/imprint/", "imprint", 90));
    expect(paths(frontier.take(2))).toEqual(["/imprint/", "/en/contact/"]);
  });

  it("stays bounded, dropping the worst pages for better ones", () => {
    const frontier = new CrawlFrontier();
    for (let index = 0; index < 1_200; index++) frontier.add(link(`/post-${index}`, "other", index % 50));
    frontier.add(link("/contact", "contact", 100));
    expect(frontier.size).toBe(1_000);
    expect(paths(frontier.take(1))).toEqual(["/contact"]);
  });
});
