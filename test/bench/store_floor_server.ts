/**
 * The floor of inlet's storage design: bare Bun.serve that, per request, parses the JSON body,
 * hashes the `X-Delivery-Id` header as the dedup key and commits what an accepted request of
 * issue 13's configuration commits — the dedup key, a run whose `$trigger` holds the body and
 * headers, and an Activity row — through inlet's own SQLite store (group commit, WAL flushed with
 * fdatasync before the answer), then answers 200. No authentication, filter, redaction, routing
 * or HTTP edge: whatever inlet spends beyond this figure is the request path; this figure itself
 * is what the durable store costs. Env: DATA_DIR (required), PORT (0 = any).
 */
import { SqliteStore, sqlitePathIn } from "../../src/store/sqlite/sqlite_store.ts";
import { acceptedRecord } from "./accepted_record.ts";

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR is required");
const store = new SqliteStore(sqlitePathIn(dataDir));

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    const body = JSON.parse(await request.text());
    const record = acceptedRecord("trg_floor", request.headers.get("x-delivery-id") ?? crypto.randomUUID(), body, request.headers.toJSON());
    const { deduplicated } = await store.commitIngest(record);
    return Response.json({ status: deduplicated ? "deduplicated" : "accepted", request_id: record.activity.requestId, run_id: record.run!.id });
  },
});
console.log(`floor listening on http://127.0.0.1:${server.port}`);
