// The web app's chat button for other sites (the access point's "Chat button (script)" embed
// code): `<script src=".../static/embed.js" data-web-app-url="..." data-title="..." defer>`.
// It runs on the host page, so it uses no module and touches nothing but what it adds: a button
// that opens and closes the web app in a frame beside it.
(function embedWebApp() {
  const script = document.currentScript;
  const url = script && script.dataset.webAppUrl;
  if (!url) return;
  const title = script.dataset.title || 'Chat';
  const frameId = `agent-builder-web-app-${Math.random().toString(36).slice(2)}`;

  const frame = document.createElement('iframe');
  frame.id = frameId;
  frame.title = title;
  frame.hidden = true;
  frame.setAttribute('allow', 'microphone');
  Object.assign(frame.style, {
    position: 'fixed', right: '1rem', bottom: '4.5rem', width: 'min(400px, calc(100vw - 2rem))',
    height: 'min(640px, calc(100vh - 6rem))', border: '1px solid #d0d7de', borderRadius: '12px',
    background: '#fff', boxShadow: '0 8px 24px rgba(0, 0, 0, 0.2)', zIndex: '2147483646',
  });

  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = `Chat with ${title}`;
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', frameId);
  Object.assign(button.style, {
    position: 'fixed', right: '1rem', bottom: '1rem', padding: '0.65rem 1rem', border: '0',
    borderRadius: '999px', background: '#1f6feb', color: '#fff', font: 'inherit', cursor: 'pointer',
    zIndex: '2147483647',
  });
  button.addEventListener('click', () => {
    const open = frame.hidden;
    if (open && !frame.src) frame.src = url; // the web app loads when first opened
    frame.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
  });

  document.body.append(frame, button);
}());
