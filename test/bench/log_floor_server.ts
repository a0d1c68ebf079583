/**
 * The floor of any durable design, SQLite or not: bare Bun.serve that appends each request's body
 * to one file and answers once an fdatasync that began after the append has finished — the
 * appends of one turn of the event loop written and flushed together, like inlet's group commit.
 * No parsing, authentication, dedup index, run or Activity row: what a 200 that means "on disk"
 * costs on this machine at the least. Env: DATA_DIR (required), PORT (0 = any).
 */
import { fdatasync, openSync, write } from "node:fs";
import { join } from "node:path";

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR is required");
const fd = openSync(join(dataDir, "append.log"), "a");

let batch: Array<{ bytes: Uint8Array; done(): void }> = [];
let flushing = false;

/** Writes and flushes what gathered meanwhile; one flush at a time, the next batch waits for it. */
function flush(): void {
  if (flushing || batch.length === 0) return;
  flushing = true;
  const taken = batch;
  batch = [];
  const fail = (error: Error | null) => {
    if (error) throw error;
  };
  write(fd, Buffer.concat(taken.map((entry) => entry.bytes)), (error) => {
    fail(error);
    fdatasync(fd, (synced) => {
      fail(synced);
      for (const entry of taken) entry.done();
      flushing = false;
      flush();
    });
  });
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    await new Promise<void>((done) => {
      batch.push({ bytes, done });
      queueMicrotask(flush);
    });
    return Response.json({ received: true, bytes: bytes.byteLength });
  },
});
console.log(`log floor listening on http://127.0.0.1:${server.port}`);
