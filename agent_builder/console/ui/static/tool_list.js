// The configure page's tools: a switch per builtin tool with what the tool needs to work, and a
// search over their names and descriptions. A tool is unavailable while its credential is missing
// or failed its last check (Settings → Tools), and knowledge search while no dataset is attached.
// An unavailable tool that is off cannot be switched on, and says why; one already on stays on
// (the draft keeps it) and can be switched off.
import { byId, h } from './dom.js';

const searchInput = byId('tool-search');
const emptyState = byId('tools-empty');
let rerender = () => {};

const SETTINGS_LINK = () => h('a', { href: '/settings/tools' }, 'Settings → Tools');

// Why the tool cannot run for this draft (as nodes), or null when it can.
function unavailableReason(tool, config) {
  if (tool.credential_state === 'missing') {
    return ['Unavailable: needs a credential. Add one under ', SETTINGS_LINK(), '.'];
  }
  if (tool.credential_state === 'invalid') {
    return ['Unavailable: its credential failed its last check. Check it or add another under ', SETTINGS_LINK(), '.'];
  }
  if (tool.name === 'knowledge_search' && !config.knowledge.dataset_ids.length) {
    return ['Unavailable: attach a knowledge dataset to search.'];
  }
  return null;
}

function stateText(tool, config) {
  return unavailableReason(tool, config)
    || [tool.credential_state === 'configured' ? 'Credential configured' : 'Ready'];
}

function matches(tool, query) {
  const needle = query.trim().toLowerCase();
  return !needle || `${tool.label} ${tool.description}`.toLowerCase().includes(needle);
}

function toolItem(tool, config, onChange) {
  const entry = config.tools.find((item) => item.name === tool.name);
  const id = `tool-${tool.name}`;
  const unavailable = unavailableReason(tool, config) !== null;
  const checkbox = h('input', {
    type: 'checkbox', id, checked: Boolean(entry?.enabled), 'aria-describedby': `${id}-state ${id}-hint`,
  });
  checkbox.disabled = unavailable && !entry?.enabled; // it can still be switched off
  checkbox.addEventListener('change', () => {
    // Unchecking keeps the tool in the draft as disabled rather than dropping it.
    const existing = config.tools.find((item) => item.name === tool.name);
    if (existing) existing.enabled = checkbox.checked;
    else config.tools.push({ name: tool.name, enabled: checkbox.checked });
    onChange();
    rerender(); // switched off while unavailable: it cannot be switched on again
  });
  return h('li', { class: 'check-item', hidden: !matches(tool, searchInput.value) },
    checkbox,
    h('div', {},
      h('label', { for: id }, tool.label),
      h('p', { id: `${id}-state`, class: unavailable ? 'hint tool-unavailable' : 'hint' }, ...stateText(tool, config)),
      h('p', { id: `${id}-hint`, class: 'hint' }, tool.description)));
}

// Renders `tools` (the catalog) against the draft `config`; `onChange()` after a switch changed it.
export function renderToolList(tools, config, onChange) {
  rerender = () => renderToolList(tools, config, onChange);
  const items = tools.map((tool) => toolItem(tool, config, onChange));
  byId('tools').replaceChildren(...items);
  const query = searchInput.value.trim();
  emptyState.hidden = !query || items.some((item) => !item.hidden);
  emptyState.textContent = `No tools match “${query}”.`;
}

searchInput.addEventListener('input', () => rerender());
