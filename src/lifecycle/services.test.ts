import { expect, test } from "bun:test";
import { Services } from "./services.ts";

test("services stop in reverse order of start, each once, a failing one logged and the rest still stopped", async () => {
  const stopped: string[] = [];
  const errors: string[] = [];
  const services = new Services((name, error) => errors.push(`${name}: ${(error as Error).message}`));
  services.add({ name: "store", stop: () => void stopped.push("store") });
  services.add({ name: "queue", stop: async () => (await Bun.sleep(5), stopped.push("queue")) });
  services.add({
    name: "listener",
    stop: () => {
      throw new Error("already closed");
    },
  });
  services.add({ name: "loop", stop: () => void stopped.push("loop") });
  const first = services.stop();
  expect(services.stop()).toBe(first);
  await first;
  expect(stopped).toEqual(["loop", "queue", "store"]);
  expect(errors).toEqual(["listener: already closed"]);
  await services.stop();
  expect(stopped).toEqual(["loop", "queue", "store"]);
});
