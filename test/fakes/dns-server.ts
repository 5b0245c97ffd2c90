import { createSocket, type RemoteInfo, type Socket as UdpSocket } from "node:dgram";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import dnsPacket, { type Answer, type Packet, type Question } from "dns-packet";

/*
 * A tiny authoritative DNS server over UDP on 127.0.0.1, so resolver and mail-DNS tests run offline against real DNS
 * packets (c-ares takes "127.0.0.1:PORT" as a server). It answers from an in-memory zone: NXDOMAIN for names it does
 * not know, NOERROR with no answers for a known name lacking the asked type, CNAMEs followed inside the zone. Answers
 * too large for UDP are sent truncated (TC) and served in full over TCP on the same port, as resolvers then retry.
 */

export interface FakeZoneEntry {
  A?: string[];
  AAAA?: string[];
  MX?: { exchange: string; priority: number }[];
  /** One string per TXT record; strings over 255 bytes are split into character-strings, as real zones do. */
  TXT?: string[];
  CNAME?: string;
}

/** Keys are lowercase names without the trailing dot. */
export type FakeZone = Record<string, FakeZoneEntry>;

export interface FakeDnsServer {
  /** "127.0.0.1:PORT", ready for `Resolver#setServers`. */
  server: string;
  port: number;
  setZone(zone: FakeZone): void;
  /** Every question received, in order. */
  queries: { name: string; type: string }[];
  close(): Promise<void>;
}

const TTL = 60;
const RCODE_NXDOMAIN = 3;
const MAX_CNAME_DEPTH = 8;
const CLASSIC_UDP_SIZE = 512;

export async function startFakeDnsServer(zone: FakeZone): Promise<FakeDnsServer> {
  let current = normalise(zone);
  const queries: { name: string; type: string }[] = [];
  const respond = (message: Buffer, maxSize: (query: Packet) => number): Buffer | undefined => {
    let query: Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return undefined; // Not DNS: a real server would drop it too.
    }
    return answer(query, current, queries, maxSize(query));
  };

  const { udp, tcp, port } = await bindBoth();
  udp.on("message", (message: Buffer, remote: RemoteInfo) => {
    const response = respond(message, advertisedSize);
    if (response !== undefined) udp.send(response, remote.port, remote.address);
  });
  const connections = new Set<Socket>();
  tcp.on("connection", (connection) => {
    connections.add(connection);
    connection.on("close", () => connections.delete(connection));
    let pending = Buffer.alloc(0);
    connection.on("data", (data: Buffer) => {
      // Over TCP every message is preceded by its 16-bit length.
      pending = Buffer.concat([pending, data]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const length = pending.readUInt16BE(0);
        const response = respond(pending.subarray(2, 2 + length), () => 0xffff);
        pending = pending.subarray(2 + length);
        if (response === undefined) continue;
        const framed = Buffer.alloc(2 + response.length);
        framed.writeUInt16BE(response.length, 0);
        response.copy(framed, 2);
        connection.write(framed);
      }
    });
    connection.on("error", () => connection.destroy());
  });

  return {
    server: `127.0.0.1:${port}`,
    port,
    setZone(next) {
      current = normalise(next);
    },
    queries,
    async close() {
      for (const connection of connections) connection.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

/** A UDP socket and a TCP server on the same free loopback port (a few tries: the port may be taken for TCP). */
async function bindBoth(): Promise<{ udp: UdpSocket; tcp: Server; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const udp = createSocket("udp4");
    await new Promise<void>((resolve, reject) => {
      udp.once("error", reject);
      udp.bind(0, "127.0.0.1", () => {
        udp.off("error", reject);
        resolve();
      });
    });
    const port = (udp.address() as AddressInfo).port;
    const tcp = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once("error", reject);
        tcp.listen(port, "127.0.0.1", () => {
          tcp.off("error", reject);
          resolve();
        });
      });
      return { udp, tcp, port };
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (attempt >= 10) throw error;
    }
  }
}

function answer(query: Packet, zone: FakeZone, log: { name: string; type: string }[], maxSize: number): Buffer {
  const questions = query.questions ?? [];
  const answers: Answer[] = [];
  let known = true;
  for (const question of questions) {
    log.push({ name: question.name.toLowerCase(), type: question.type });
    const found = recordsFor(question, zone);
    if (found === undefined) known = false;
    else answers.push(...found);
  }

  const flags =
    dnsPacket.AUTHORITATIVE_ANSWER |
    dnsPacket.RECURSION_DESIRED |
    dnsPacket.RECURSION_AVAILABLE |
    (known ? 0 : RCODE_NXDOMAIN);
  const response = dnsPacket.encode({ id: query.id, type: "response", flags, questions, answers });
  if (response.length <= maxSize) return response;
  // Too big for this UDP exchange: say so (TC) the way a real server does, instead of sending a cut packet.
  return dnsPacket.encode({
    id: query.id,
    type: "response",
    flags: flags | dnsPacket.TRUNCATED_RESPONSE,
    questions,
    answers: [],
  });
}

/** The answer records for one question; undefined when the name does not exist at all (NXDOMAIN). */
function recordsFor(question: Question, zone: FakeZone): Answer[] | undefined {
  const answers: Answer[] = [];
  let name = question.name.toLowerCase().replace(/\.$/, "");
  for (let depth = 0; depth <= MAX_CNAME_DEPTH; depth++) {
    const entry = zone[name];
    if (entry === undefined) return depth === 0 ? undefined : answers;
    if (entry.CNAME !== undefined && question.type !== "CNAME") {
      answers.push({ type: "CNAME", name, ttl: TTL, data: entry.CNAME });
      name = entry.CNAME.toLowerCase().replace(/\.$/, "");
      continue;
    }
    answers.push(...recordsOfType(name, question.type, entry));
    return answers;
  }
  return answers;
}

function recordsOfType(name: string, type: string, entry: FakeZoneEntry): Answer[] {
  switch (type) {
    case "A":
      return (entry.A ?? []).map((data) => ({ type: "A", name, ttl: TTL, data }));
    case "AAAA":
      return (entry.AAAA ?? []).map((data) => ({ type: "AAAA", name, ttl: TTL, data }));
    case "MX":
      return (entry.MX ?? []).map(({ exchange, priority }) => ({
        type: "MX",
        name,
        ttl: TTL,
        data: { exchange, preference: priority },
      }));
    case "TXT":
      return (entry.TXT ?? []).map((text) => ({ type: "TXT", name, ttl: TTL, data: characterStrings(text) }));
    case "CNAME":
      return entry.CNAME === undefined ? [] : [{ type: "CNAME", name, ttl: TTL, data: entry.CNAME }];
    default:
      return [];
  }
}

/** A TXT string as DNS character-strings: at most 255 bytes each. */
function characterStrings(text: string): Buffer[] {
  const bytes = Buffer.from(text, "utf8");
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += 255) chunks.push(bytes.subarray(offset, offset + 255));
  return chunks.length === 0 ? [Buffer.alloc(0)] : chunks;
}

/** The UDP payload size the client can take: its EDNS OPT record's, or the classic 512 bytes. */
function advertisedSize(query: Packet): number {
  const opt = (query.additionals ?? []).find((record) => record.type === "OPT");
  const size = opt !== undefined && "udpPayloadSize" in opt ? opt.udpPayloadSize : undefined;
  return typeof size === "number" && size > CLASSIC_UDP_SIZE ? size : CLASSIC_UDP_SIZE;
}

function normalise(zone: FakeZone): FakeZone {
  return Object.fromEntries(
    Object.entries(zone).map(([name, entry]) => [name.toLowerCase().replace(/\.$/, ""), entry]),
  );
}
