import { describe, expect, it } from "vitest";
import {
  isNeverWorthReading,
  languageOf,
  type LinkOrigin,
  rankLink,
} from "@/lib/providers/first-party/website/link-ranking";
import { looksLikePersonName, looksLikeProfilePath } from "@/lib/providers/first-party/website/person-links";

const HOME_MAP: LinkOrigin = { place: "map", pageDepth: 0, pageBucket: "home", pageMailtos: 0, pagePersonNameLinks: 0 };
const HOME_BODY: LinkOrigin = { ...HOME_MAP, place: "body" };
const SITEMAP: LinkOrigin = { ...HOME_MAP, place: "sitemap" };
const TEAM_BODY: LinkOrigin = {
  place: "body",
  pageDepth: 1,
  pageBucket: "team",
  pageMailtos: 0,
  pagePersonNameLinks: 0,
};

const url = (path: string) => new URL(path, "http://acme.example");
const rank = (path: string, text: string, origin: LinkOrigin, language: string | null = null) =>
  rankLink(url(path), text, origin, language);
const score = (path: string, text = "", origin = HOME_MAP, language: string | null = null) =>
  rank(path, text, origin, language)?.score ?? Number.NaN;

describe("rankLink", () => {
  it("ranks kinds that print addresses and people above the rest", () => {
    const order = [
      "/contact/",
      "/team/",
      "/impressum/",
      "/standorte/",
      "/about/",
      "/events/",
      "/careers/",
      "/privacy/",
      "/pricing/",
    ];
    const scores = order.map((path) => score(path));
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(new Set(scores).size).toBe(scores.length);
  });

  it("trusts the home page's navigation over its body, and both over the sitemap unless the name is strong", () => {
    expect(score("/about/", "", HOME_MAP)).toBeGreaterThan(score("/about/", "", HOME_BODY));
    expect(score("/about/", "", HOME_BODY)).toBeGreaterThan(score("/about/", "", SITEMAP));
    expect(score("/about/", "", HOME_MAP) - score("/about/", "", SITEMAP)).toBeGreaterThan(
      score("/kontakt/", "", HOME_MAP) - score("/kontakt/", "", SITEMAP),
    );
  });

  it("ranks deeper links lower, and body links of a page full of addresses higher", () => {
    const deep: LinkOrigin = { ...HOME_BODY, pageDepth: 2, pageBucket: "about" };
    expect(score("/offices/", "", deep)).toBeLessThan(score("/offices/", "", { ...deep, pageDepth: 1 }));
    expect(score("/offices/", "", { ...deep, pageMailtos: 6 })).toBeGreaterThan(score("/offices/", "", deep));
    expect(rank("/offices/", "", deep)?.depth).toBe(3);
  });

  it("takes a person's name in a staff list, or a name slug under a people section, for a person's page", () => {
    expect(rank("/p/17", "Jane Q. Doe", TEAM_BODY)?.bucket).toBe("profile");
    expect(rank("/directory/detail?id=17", "Doe, Jane", TEAM_BODY)?.bucket).toBe("profile");
    expect(rank("/staff/jane-doe/", "Read more", TEAM_BODY)?.bucket).toBe("profile");
    // A name in the home page's body is a name, not a list of people; in a page with several names and addresses,
    // it is; several names alone may be products ("Fish Stock").
    expect(rank("/p/17", "Jane Doe", HOME_BODY)?.bucket).toBe("other");
    expect(rank("/p/17", "Jane Doe", { ...HOME_BODY, pagePersonNameLinks: 4, pageMailtos: 4 })?.bucket).toBe("profile");
    expect(rank("/p/17", "Fish Stock", { ...HOME_BODY, pagePersonNameLinks: 4 })?.bucket).toBe("other");
    // The menu of a team page names pages, not people.
    expect(rank("/p/17", "Jane Doe", { ...TEAM_BODY, place: "map" })?.bucket).toBe("other");
    expect(score("/directory/detail?id=17", "Doe, Jane", TEAM_BODY)).toBeGreaterThan(score("/pricing/", "", HOME_MAP));
  });

  it("ranks pages that rarely carry addresses low", () => {
    const plain = score("/field-notes/");
    for (const path of [
      "/2024/03/field-notes/",
      "/blog/2024-03-05-field-notes/",
      "/tag/solar/",
      "/category/news/",
      "/news/field-notes/",
      "/products/panel-400/",
      "/our-products/smoked-trout/",
      "/field-notes/?sort=new",
      "/de/field-notes/",
    ])
      expect(score(path), path).toBeLessThan(plain);
    // In the home page's own language, a language prefix costs nothing.
    expect(score("/de/kontakt/", "", HOME_MAP, "de")).toBe(score("/kontakt/", "", HOME_MAP, "de"));
  });

  it("never follows links to log-in, cart, search, feeds or files", () => {
    for (const path of [
      "/wp-login.php",
      "/cart/",
      "/warenkorb",
      "/?s=solar",
      "/search?q=x",
      "/feed/",
      "/kit.pdf",
      "/my-account/",
    ])
      expect(rank(path, "Contact", HOME_MAP), path).toBeNull();
    expect(isNeverWorthReading(url("/contact/"))).toBe(false);
  });

  it("reads a path's language prefix", () => {
    expect(languageOf(url("/en/contact"))).toBe("en");
    expect(languageOf(url("/de-AT/"))).toBe("de-at");
    expect(languageOf(url("/pt_BR/x"))).toBe("pt-br");
    expect(languageOf(url("/contact/en"))).toBeNull();
    expect(languageOf(url("/team/"))).toBeNull();
  });
});

describe("looksLikePersonName", () => {
  it.each([
    "Jane Doe",
    "Dr. Jane Q. Doe",
    "Doe, Jane",
    "Jane Doe, MFA",
    "Hans van der Berg",
    "Žofie Nováková",
    "Anne-Marie O'Neil",
    "Jane Doe, Ph.D.",
    "Doe, Jane Q., CPA®",
    "Rosa McKay, JD",
  ])("%s is a name", (text) => expect(looksLikePersonName(text)).toBe(true));
  it.each([
    "Contact Sales",
    "Our Team",
    "Read More",
    "Jane",
    "Meet the Board",
    "info@acme.example",
    "2024 Annual Report",
    "jane doe",
  ])("%s is not", (text) => expect(looksLikePersonName(text)).toBe(false));
});

describe("looksLikeProfilePath", () => {
  it.each([
    ["/staff/jane-doe/", true],
    ["/team/j-doe.html", true],
    ["/people/doe_jane/", true],
    ["/staff/", false],
    ["/team/our-values/", false],
    ["/team/contact-us/", false],
    ["/blog/jane-doe/", false],
  ])("%s → %s", (path, expected) => expect(looksLikeProfilePath(url(path))).toBe(expected));
});
