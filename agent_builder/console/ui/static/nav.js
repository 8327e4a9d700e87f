// Console chrome: the "Sign out" button, plus leave guards that let a page finish work
// (e.g. a pending autosave) before an in-app link or sign-out replaces it.
import { api } from './api.js';

const guards = new Set();

// `guard` returns (a promise of) true when it is fine to leave now.
export function guardLeave(guard) {
  guards.add(guard);
}

async function mayLeave() {
  for (const guard of guards) {
    if (!(await guard())) return false;
  }
  return true;
}

document.addEventListener('click', async (event) => {
  const link = event.target.closest('a[href]');
  if (!link || !guards.size || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || (url.pathname === location.pathname && url.hash)) return;
  event.preventDefault();
  if (await mayLeave()) location.assign(url.href);
});

const signOut = document.getElementById('sign-out');
signOut?.addEventListener('click', async (event) => {
  const button = event.currentTarget;
  button.disabled = true;
  // Stay if unsaved work could not be saved: the page says why and offers a retry.
  if (!(await mayLeave())) {
    button.disabled = false;
    return;
  }
  await api.post('/console/api/logout', undefined, { redirectOn401: false }).catch(() => {});
  location.assign('/login');
});
// Disabled until now: before this handler exists, a click would do nothing.
if (signOut) signOut.disabled = false;
