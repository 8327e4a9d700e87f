// Agents roster: search, create (then open the new agent), duplicate, delete with confirmation.
import { api } from './api.js';
import { bindCreateDialog, byId, confirmDialog, h, pageLoaded, showAlert, timeEl } from './dom.js';
import { openDuplicateDialog } from './duplicate.js';

const PAGE_SIZE = 50;
const list = byId('agents');
const emptyEl = byId('agents-empty');
const countEl = byId('agent-count');
const listError = byId('list-error');
const moreButton = byId('more');
const searchInput = byId('search');

let loaded = [];
let total = 0;
let loadToken = 0; // ignores responses to searches the user has already replaced

function row(agent) {
  const href = `/agents/${encodeURIComponent(agent.id)}/configure`;
  const published = agent.published_version !== null && agent.published_version !== undefined;
  return h('li', { class: 'row' },
    h('div', { class: 'row-main' },
      h('a', { class: 'row-title', href }, agent.name),
      agent.description ? h('p', { class: 'muted' }, agent.description) : null),
    h('span', { class: published ? 'badge badge-success' : 'badge' },
      published ? `Published v${agent.published_version}` : 'Draft'),
    h('span', { class: 'muted' }, 'Updated ', timeEl(agent.updated_at)),
    h('button', {
      type: 'button', class: 'button', 'aria-label': `Duplicate ${agent.name}`,
      onclick: () => openDuplicateDialog(agent),
    }, 'Duplicate'),
    h('button', {
      type: 'button', class: 'button danger-quiet', 'aria-label': `Delete ${agent.name}`,
      onclick: (event) => remove(agent, event.currentTarget),
    }, 'Delete'));
}

function render() {
  list.replaceChildren(...loaded.map(row));
  const searching = searchInput.value.trim() !== '';
  emptyEl.hidden = loaded.length > 0;
  emptyEl.textContent = searching ? 'No agents match' : 'No agents yet';
  countEl.textContent = total === 1 ? '1 agent' : total ? `${total} agents` : '';
  moreButton.hidden = loaded.length >= total;
}

async function load({ append = false } = {}) {
  const token = ++loadToken;
  const params = new URLSearchParams({ limit: PAGE_SIZE, offset: append ? loaded.length : 0 });
  const search = searchInput.value.trim();
  if (search) params.set('search', search);
  try {
    const page = await api.get(`/console/api/agents?${params}`);
    if (token !== loadToken) return;
    loaded = append ? loaded.concat(page.data) : page.data;
    total = page.total;
    showAlert(listError, '');
    render();
  } catch (err) {
    if (token === loadToken) showAlert(listError, `Could not load agents: ${err.message}`);
  }
}

async function remove(agent, button) {
  const confirmed = await confirmDialog({
    title: 'Delete agent?',
    message: `"${agent.name}" will be deleted with its files, API keys, versions and conversations.`,
    confirmLabel: 'Delete',
  });
  if (!confirmed) return;
  button.disabled = true;
  try {
    await api.delete(`/console/api/agents/${encodeURIComponent(agent.id)}`);
    await load();
  } catch (err) {
    button.disabled = false;
    showAlert(listError, `Could not delete "${agent.name}": ${err.message}`);
  }
}

let searchTimer;
searchInput.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(load, 300);
});
moreButton.addEventListener('click', () => load({ append: true }));

bindCreateDialog({
  openButton: byId('open-create'),
  dialog: byId('create-dialog'),
  create: async (fields) => {
    const agent = await api.post('/console/api/agents', fields);
    return `/agents/${encodeURIComponent(agent.id)}/configure`;
  },
});

load().finally(pageLoaded);
