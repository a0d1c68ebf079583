/**
 * Makes a textarea as tall as its content, so that nothing is cut off mid-line: at least its
 * `rows`, at most `maxRem` (then it scrolls). Refitted on input, when its width changes (lines
 * wrap differently) and through the returned function after a value is set from code.
 */
export function autosize(area: HTMLTextAreaElement, maxRem = 32): () => void {
  let width = -1;
  const fit = () => {
    if (!area.isConnected) return;
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const max = rem * maxRem;
    area.style.height = "auto";
    const border = area.offsetHeight - area.clientHeight;
    const wanted = area.scrollHeight + border;
    area.style.height = `${Math.min(wanted, max)}px`;
    area.style.overflowY = wanted > max ? "auto" : "hidden";
  };
  area.addEventListener("input", fit);
  // Only a change of width needs a refit here; the height is what fit() itself sets.
  new ResizeObserver(([entry]) => {
    const now = Math.round(entry.contentRect.width);
    if (now === width) return;
    width = now;
    fit();
  }).observe(area);
  return fit;
}
