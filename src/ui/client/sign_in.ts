import { api, ApiError, session } from "./api.ts";
import { h } from "./dom.ts";
import { field } from "./field.ts";
import type { View } from "./view.ts";

/** The sign-in form: the admin token, checked against the API before it is kept. */
export function signInView(done: () => void): View {
  const token = field(
    "Admin token",
    h("input", { type: "password", name: "token", autocomplete: "current-password", required: true, spellcheck: "false" }),
    "Printed once when inlet first started, or the INLET_ADMIN_TOKEN it was started with. Kept in this tab only.",
  );
  const submit = h("button", { type: "submit", class: "primary" }, "Sign in");
  const form = h("form", { class: "card sign-in", novalidate: true }, h("h1", { tabindex: "-1" }, "Sign in to inlet"), token.wrap, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = token.control.value.trim();
    if (!value) {
      token.setError("Enter the admin token.");
      token.control.focus();
      return;
    }
    submit.disabled = true;
    try {
      await api("GET", "/api/triggers", undefined, value);
      session.set(value);
      done();
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      token.setError(
        status === 401 ? "That admin token was not accepted. Lost it? On the server, inlet admin-token reset prints a new one." : (error as Error).message,
      );
      token.control.focus();
    } finally {
      submit.disabled = false;
    }
  });
  queueMicrotask(() => token.control.focus());
  return { el: h("div", { class: "sign-in-screen" }, form) };
}
