// Knowledge datasets: list, create (then open the new dataset), delete with confirmation.
import { api } from './api.js';
import { bindCreateDialog, byId, confirmRemoval, h, pageLoaded, showAlert } from './dom.js';

const listError = byId('list-error');

function row(dataset) {
  const count = dataset.document_count === 1 ? '1 document' : `${dataset.document_count} documents`;
  return h('li', { class: 'row' },
    h('div', { class: 'row-main' },
      h('a', { class: 'row-title', href: `/knowledge/${encodeURIComponent(dataset.id)}` }, dataset.name),
      dataset.description ? h('p', { class: 'muted' }, dataset.description) : null),
    h('span', { class: 'muted' }, count),
    h('button', {
      type: 'button', class: 'button danger-quiet', 'aria-label': `Delete ${dataset.name}`,
      onclick: (event) => remove(dataset, event.currentTarget),
    }, 'Delete'));
}

async function load() {
  try {
    const datasets = (await api.get('/console/api/datasets')).data;
    byId('datasets').replaceChildren(...datasets.map(row));
    byId('datasets-empty').hidden = datasets.length > 0;
  } catch (err) {
    showAlert(listError, `Could not load datasets: ${err.message}`);
  }
}

function remove(dataset, button) {
  return confirmRemoval({
    confirm: {
      title: 'Delete dataset?',
      message: `"${dataset.name}" and its documents will be deleted and detached from every agent.`,
      confirmLabel: 'Delete',
    },
    button,
    alertEl: listError,
    remove: () => api.delete(`/console/api/datasets/${encodeURIComponent(dataset.id)}`),
    failure: `Could not delete "${dataset.name}"`,
    reload: load,
  });
}

bindCreateDialog({
  openButton: byId('open-create'),
  dialog: byId('create-dialog'),
  create: async (fields) => {
    const dataset = await api.post('/console/api/datasets', fields);
    return `/knowledge/${encodeURIComponent(dataset.id)}`;
  },
});

load().finally(pageLoaded);
