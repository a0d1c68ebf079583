/** Says something to screen-reader users through the page's polite live region. */
export function announce(message: string): void {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.textContent = "";
  // A fresh text node after a tick makes repeated messages announce again.
  setTimeout(() => (region.textContent = message), 50);
}
