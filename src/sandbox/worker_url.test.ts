import { expect, test } from "bun:test";
import { workerUrl } from "./worker_url.ts";

test("a worker is found beside its caller in the sources, and at its path from src/ in the compiled binary", () => {
  expect(workerUrl("file:///repo/src/ingest/xml_thread.ts", "ingest/xml_worker.ts")).toBe("file:///repo/src/ingest/xml_worker.ts");
  expect(workerUrl("file:///repo/src/checks/pool.ts", "checks/worker.ts")).toBe("file:///repo/src/checks/worker.ts");
  expect(workerUrl("file:///$bunfs/root/inlet", "ingest/xml_worker.ts")).toBe("file:///$bunfs/root/ingest/xml_worker.ts");
  expect(workerUrl("file:///$bunfs/root/inlet", "checks/worker.ts")).toBe("file:///$bunfs/root/checks/worker.ts");
});
