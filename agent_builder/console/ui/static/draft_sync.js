// Concurrent tabs on the configure page. A tab learns that its draft was changed elsewhere when a
// save is refused (409) or when the user comes back to it (focus, visibilitychange), and then
// offers "Load latest": the latest draft, with this tab's own changes to fields nobody else
// changed kept on top (saved right away). Another tab's edit is never overwritten.
import { api } from './api.js';
import { agentPath } from './agent_page.js';
import { byId } from './dom.js';

export const CHANGED_ELSEWHERE = 'This agent was changed elsewhere. Load the latest version to keep editing.';

// JSON with sorted keys, so two equal configs compare equal whatever their key order.
function canonical(value) {
  return JSON.stringify(value, (_key, item) => (item && typeof item === 'object' && !Array.isArray(item)
    ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
    : item));
}
const same = (a, b) => canonical(a) === canonical(b);

// Three-way merge by top-level field: `base` is what this tab last knew the server had, `mine`
// this tab's config, `theirs` the server's now. A field only this tab changed keeps this tab's
// value; every other field takes theirs (also when both changed it: theirs was saved first).
function mergeDrafts(base, mine, theirs) {
  const merged = structuredClone(theirs);
  for (const key of Object.keys({ ...base, ...mine, ...theirs })) {
    if (!same(mine[key], base[key]) && !same(mine[key], theirs[key]) && same(theirs[key], base[key])) {
      merged[key] = structuredClone(mine[key]);
    }
  }
  return merged;
}

// `state()` -> {revision, config, idle} (idle: no edit pending or being saved); `onStale()`
// makes the page stop saving and say so; `apply(detail, config)` shows `config` on top of the
// latest `detail` and saves it when it differs from the server's draft.
export function createDraftSync({ state, onStale, apply }) {
  const button = byId('load-latest');
  let base = null;

  function known(draft) {
    base = structuredClone(draft.config);
  }

  function stale() {
    button.hidden = false;
    onStale();
  }

  async function check() {
    const before = state();
    if (!before.idle || !button.hidden || base === null) return;
    const detail = await api.get(agentPath).catch(() => null);
    const now = state();
    // A save of this tab that started meanwhile changes the revision itself: not a conflict.
    if (!detail || !now.idle || now.revision !== before.revision) return;
    if (detail.draft.revision !== before.revision) stale();
  }

  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const detail = await api.get(agentPath);
      const merged = mergeDrafts(base, state().config, detail.draft.config);
      button.hidden = true;
      apply(detail, merged, !same(merged, detail.draft.config));
    } finally {
      button.disabled = false;
    }
  });
  window.addEventListener('focus', check);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });

  return { known, stale };
}
