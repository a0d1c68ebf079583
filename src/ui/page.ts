/** The HTML shell of the panel: the client script renders everything into `#app`. */
export function panelPage(version: { script: string; styles: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>inlet</title>
<link rel="icon" href="/ui/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/ui/app.css?v=${version.styles}">
<script type="module" src="/ui/app.js?v=${version.script}"></script>
</head>
<body>
<noscript><p class="noscript">The inlet panel needs JavaScript. The management API is at <code>/api</code>.</p></noscript>
<div id="app"></div>
</body>
</html>
`;
}

export const PANEL_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M9 8v9a7 7 0 0 0 14 0V8" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round"/><circle cx="16" cy="17" r="2.6" fill="#fff"/></svg>`;
