// Runs in every document of a scenario's browser context, before the page's own scripts. It
// reports, as an uncaught error (a "pageerror" the hooks fail the scenario on), each load from an
// origin other than the console's, whether it loaded or failed, and each load the page's
// Content-Security-Policy blocked. Watching in the page costs nothing per request, where a
// Playwright "request" listener costs a protocol event for every request the browser makes.
// The suite's own pages (`suiteOrigins`) are not the product's: they are left alone.
(consoleOrigin, suiteOrigins) => {
  if (suiteOrigins.includes(location.origin)) return; // a page the suite serves, e.g. an embedding site
  const reported = new Set();
  const report = (problem) => {
    if (reported.has(problem)) return;
    reported.add(problem);
    setTimeout(() => {
      throw new Error(problem);
    });
  };
  const elsewhere = (url) => /^https?:$/.test(url.protocol) && url.origin !== consoleOrigin;
  if (elsewhere(location)) report(`request to another origin: ${location.href}`);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (elsewhere(new URL(entry.name))) report(`request to another origin: ${entry.name}`);
    }
  }).observe({ type: 'resource', buffered: true });
  document.addEventListener('securitypolicyviolation', (event) => {
    report(`blocked by the Content-Security-Policy (${event.effectiveDirective}): ${event.blockedURI}`);
  });
}
