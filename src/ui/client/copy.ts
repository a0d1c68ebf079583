import { announce } from "./announce.ts";
import { h } from "./dom.ts";

async function writeClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // No Clipboard API outside secure contexts (plain http on a LAN address): fall back.
  }
  const area = h("textarea", { class: "sr-only", "aria-hidden": "true", tabindex: "-1" });
  area.value = text;
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy refused");
}

/**
 * A `Copy` button for what `text()` resolves to. Its name stays `Copy`; it is described by the
 * label of what it copies (`describedBy`), and a status beside it confirms.
 */
export function copyButton(describedBy: string, text: () => string | Promise<string>): HTMLElement {
  const status = h("span", { class: "copy-status", role: "status" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const button = h(
    "button",
    {
      type: "button",
      class: "secondary small",
      "aria-describedby": describedBy,
      onClick: async () => {
        clearTimeout(timer);
        try {
          await writeClipboard(await text());
          status.textContent = "Copied";
          announce("Copied to the clipboard");
        } catch {
          status.textContent = "Copy failed: select the text and copy it by hand";
        }
        timer = setTimeout(() => (status.textContent = ""), 2500);
      },
    },
    "Copy",
  );
  return h("span", { class: "copy" }, button, status);
}
