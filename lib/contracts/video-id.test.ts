import { describe, expect, it } from "vitest";
import { isVideoId, parseVideoId } from "./video-id";

const ID = "dQw4w9WgXcQ";

describe("parseVideoId", () => {
  it.each([
    ["bare id", ID],
    ["bare id with surrounding whitespace", `  ${ID}\n`],
    ["watch", `https://www.youtube.com/watch?v=${ID}`],
    ["watch with time and extra params", `https://www.youtube.com/watch?v=${ID}&t=1s&list=PL123&index=2`],
    ["watch with v not first", `https://www.youtube.com/watch?feature=share&v=${ID}`],
    ["watch with fragment", `https://www.youtube.com/watch?v=${ID}#t=30`],
    ["watch over http", `http://www.youtube.com/watch?v=${ID}`],
    ["watch without www", `https://youtube.com/watch?v=${ID}`],
    ["mobile", `https://m.youtube.com/watch?v=${ID}&feature=youtu.be`],
    ["music", `https://music.youtube.com/watch?v=${ID}&si=abc`],
    ["upper-case host", `https://WWW.YouTube.COM/watch?v=${ID}`],
    ["no scheme", `www.youtube.com/watch?v=${ID}`],
    ["no scheme, no www", `youtube.com/watch?v=${ID}`],
    ["scheme-relative", `//www.youtube.com/watch?v=${ID}`],
    ["youtu.be", `https://youtu.be/${ID}`],
    ["youtu.be with si", `https://youtu.be/${ID}?si=AbCdEf123`],
    ["youtu.be with time", `youtu.be/${ID}?t=42`],
    ["youtu.be trailing slash", `https://youtu.be/${ID}/`],
    ["shorts", `https://www.youtube.com/shorts/${ID}`],
    ["shorts with feature", `https://youtube.com/shorts/${ID}?feature=share`],
    ["shorts trailing slash", `https://www.youtube.com/shorts/${ID}/`],
    ["embed", `https://www.youtube.com/embed/${ID}?autoplay=1`],
    ["embed nocookie", `https://www.youtube-nocookie.com/embed/${ID}`],
    ["embed nocookie without www", `https://youtube-nocookie.com/embed/${ID}?rel=0`],
    ["live", `https://www.youtube.com/live/${ID}?si=xyz`],
    ["v", `https://www.youtube.com/v/${ID}?version=3`],
    ["m shorts", `m.youtube.com/shorts/${ID}`],
  ])("accepts %s", (_name, input) => {
    expect(parseVideoId(input)).toBe(ID);
  });

  it("accepts ids with _ and -, in any form", () => {
    expect(parseVideoId("a_b-C_d-E_f")).toBe("a_b-C_d-E_f");
    expect(parseVideoId("https://youtu.be/-_-_-_-_-_-")).toBe("-_-_-_-_-_-");
  });

  it.each([
    ["empty", ""],
    ["whitespace only", "   "],
    ["10 characters", "dQw4w9WgXc"],
    ["12 characters", "dQw4w9WgXcQQ"],
    ["invalid character", "dQw4w9WgXc!"],
    ["id with a space inside", "dQw4w 9WgXcQ"],
    ["javascript: scheme", `javascript:alert('${ID}')`],
    ["javascript: scheme with youtube text", `javascript://www.youtube.com/watch?v=${ID}`],
    ["data: scheme", `data:text/html,${ID}`],
    ["ftp scheme", `ftp://www.youtube.com/watch?v=${ID}`],
    ["other host", `https://vimeo.com/${ID}`],
    ["look-alike host", `https://www.youtube.com.evil.example/watch?v=${ID}`],
    ["host suffix trick", `https://notyoutube.com/watch?v=${ID}`],
    ["subdomain not allowed", `https://evil.youtube.com/watch?v=${ID}`],
    ["youtu.be look-alike", `https://youtu.be.evil.example/${ID}`],
    ["credentials pointing elsewhere", `https://www.youtube.com@evil.example/watch?v=${ID}`],
    ["credentials", `https://user:pass@www.youtube.com/watch?v=${ID}`],
    ["port", `https://www.youtube.com:8443/watch?v=${ID}`],
    ["scheme-less with port", `www.youtube.com:8443/watch?v=${ID}`],
    ["watch without v", "https://www.youtube.com/watch?list=PL123"],
    ["watch with short v", "https://www.youtube.com/watch?v=abc"],
    ["watch with long v", `https://www.youtube.com/watch?v=${ID}X`],
    ["watch with two v", `https://www.youtube.com/watch?v=${ID}&v=aaaaaaaaaaa`],
    ["channel page", "https://www.youtube.com/@signalbox"],
    ["playlist page", "https://www.youtube.com/playlist?list=PLabcdefghij"],
    ["home page", "https://www.youtube.com/"],
    ["shorts without id", "https://www.youtube.com/shorts/"],
    ["shorts with bad id", "https://www.youtube.com/shorts/short"],
    ["extra path segment", `https://www.youtube.com/embed/${ID}/extra`],
    ["unknown path prefix", `https://www.youtube.com/clip/${ID}`],
    ["youtu.be without id", "https://youtu.be/"],
    ["youtu.be with nested path", `https://youtu.be/watch/${ID}`],
    ["youtu.be on a youtube path", `https://youtu.be/shorts/${ID}`],
    ["v param on youtu.be", `https://youtu.be/?v=${ID}`],
    ["nocookie watch of other host", `https://nocookie.com/embed/${ID}`],
    ["too long", `https://www.youtube.com/watch?v=${ID}&x=${"a".repeat(3000)}`],
    ["garbage", "not a url at all"],
    ["url with whitespace", `https://www.youtube.com/watch?v=${ID} extra`],
    ["percent-encoded id", "https://www.youtube.com/watch?v=dQw4w9WgX%21Q"],
  ])("rejects %s", (_name, input) => {
    expect(parseVideoId(input)).toBeNull();
  });

  it("rejects non-string input at run time", () => {
    expect(parseVideoId(undefined as unknown as string)).toBeNull();
    expect(parseVideoId(42 as unknown as string)).toBeNull();
  });
});

describe("isVideoId", () => {
  it("accepts exactly 11 id characters only", () => {
    expect(isVideoId(ID)).toBe(true);
    expect(isVideoId(`${ID}\n`)).toBe(false);
    expect(isVideoId(` ${ID}`)).toBe(false);
  });
});
