import { describe, expect, it } from "vitest";
import { DeliveryQueue, type DeliveryHeading } from "./delivery-queue";

const heading = (id: string): DeliveryHeading => ({ id, eventType: null, headers: {}, acknowledgedAt: null });
const never = new AbortController().signal;

async function drain(queue: DeliveryQueue, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) ids.push((await queue.take(never))!.id);
  return ids;
}

describe("DeliveryQueue", () => {
  it("hands out deliveries in the order they were queued, each id once", async () => {
    const queue = new DeliveryQueue();
    await queue.addListed(heading("a"), never);
    queue.announce("b");
    queue.announce("a");
    await queue.addListed(heading("b"), never);
    queue.announce("c");
    expect(await drain(queue, 3)).toEqual(["a", "b", "c"]);
  });

  it("never hands out an id again once it was taken (one forward per run)", async () => {
    const queue = new DeliveryQueue();
    queue.announce("a");
    expect(await drain(queue, 1)).toEqual(["a"]);
    queue.announce("a");
    await queue.addListed(heading("a"), never);
    queue.announce("b");
    expect(await drain(queue, 1)).toEqual(["b"]);
  });

  it("holds live announcements during a listing and queues them after it, skipping those it listed", async () => {
    const queue = new DeliveryQueue();
    queue.hold();
    queue.announce("new-1"); // arrived during the listing but after its start: not listed
    queue.announce("old-2"); // arrived during the listing, and listed too
    await queue.addListed(heading("old-1"), never);
    await queue.addListed(heading("old-2"), never);
    queue.announce("new-2");
    queue.release();
    queue.announce("new-3");
    expect(await drain(queue, 5)).toEqual(["old-1", "old-2", "new-1", "new-2", "new-3"]);
  });

  it("keeps the heading a listing gave, and none for an announcement", async () => {
    const queue = new DeliveryQueue();
    await queue.addListed({ ...heading("a"), eventType: "invoice.paid" }, never);
    queue.announce("b");
    const [first, second] = [await queue.take(never), await queue.take(never)];
    expect(first?.heading?.eventType).toBe("invoice.paid");
    expect(second).toEqual({ id: "b" });
  });

  it("makes a listing wait while the queue is full, and go on as deliveries are taken", async () => {
    const queue = new DeliveryQueue(2);
    await queue.addListed(heading("a"), never);
    await queue.addListed(heading("b"), never);
    let third = false;
    const adding = queue.addListed(heading("c"), never).then(() => (third = true));
    await Promise.resolve();
    expect(third).toBe(false);
    expect(await drain(queue, 1)).toEqual(["a"]);
    await adding;
    expect(await drain(queue, 2)).toEqual(["b", "c"]);
  });

  it("lets an already queued id through a full queue without waiting", async () => {
    const queue = new DeliveryQueue(1);
    await queue.addListed(heading("a"), never);
    await queue.addListed(heading("a"), never); // resolves: nothing to add
    expect(await drain(queue, 1)).toEqual(["a"]);
  });

  it("drops a delivery acknowledged elsewhere before its turn", async () => {
    const queue = new DeliveryQueue();
    queue.announce("a");
    queue.announce("b");
    queue.drop("a");
    expect(await drain(queue, 1)).toEqual(["b"]);
  });

  it("wakes a waiting taker, and answers null once stopped", async () => {
    const queue = new DeliveryQueue();
    const taking = queue.take(never);
    queue.announce("a");
    expect((await taking)?.id).toBe("a");
    const controller = new AbortController();
    const waiting = queue.take(controller.signal);
    controller.abort();
    expect(await waiting).toBeNull();
  });

  it("stops a listing waiting for room when stopped, queueing nothing", async () => {
    const queue = new DeliveryQueue(1);
    await queue.addListed(heading("a"), never);
    const controller = new AbortController();
    const adding = queue.addListed(heading("b"), controller.signal);
    controller.abort();
    await adding;
    expect(await drain(queue, 1)).toEqual(["a"]);
    queue.announce("b"); // never queued, so still new
    expect(await drain(queue, 1)).toEqual(["b"]);
  });
});
