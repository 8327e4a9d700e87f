// Tool settings: the builtin catalog with readiness, and credentials for tools that need one.
import { api } from './api.js';
import { byId, confirmRemoval, h, pageLoaded, setFieldError, showAlert, showFieldErrors, timeEl } from './dom.js';

const loadError = byId('load-error');
let tools = [];

function renderCatalog() {
  byId('catalog').replaceChildren(...tools.map((tool) => {
    const ready = !tool.requires_credential || tool.credential_configured;
    return h('li', { class: 'row' },
      h('div', { class: 'row-main' },
        h('p', { class: 'row-title' }, tool.label),
        h('p', { class: 'muted' }, tool.description)),
      h('span', { class: ready ? 'badge status-active' : 'badge status-warning' },
        ready ? 'Ready' : 'Needs credential'));
  }));
  const needing = tools.filter((tool) => tool.requires_credential);
  byId('credential-tool').replaceChildren(...needing.map((tool) => h('option', { value: tool.name }, tool.label)));
}

function renderCredentials(credentials) {
  const labelOf = (name) => tools.find((tool) => tool.name === name)?.label || name;
  byId('credentials').replaceChildren(...credentials.map((credential) => h('tr', {},
    h('td', {}, labelOf(credential.tool)),
    h('td', {}, credential.name),
    h('td', {}, credential.base_url || '—'),
    h('td', {}, h('code', {}, credential.secret_masked)),
    h('td', {}, timeEl(credential.created_at)),
    h('td', { class: 'actions' }, h('button', {
      type: 'button', class: 'button danger-quiet', 'aria-label': `Delete ${credential.name}`,
      onclick: (event) => remove(credential, event.currentTarget),
    }, 'Delete')))));
  byId('credentials-empty').hidden = credentials.length > 0;
}

async function load() {
  try {
    const [catalog, credentials] = await Promise.all([
      api.get('/console/api/tools'), api.get('/console/api/tool-credentials'),
    ]);
    tools = catalog.data;
    renderCatalog();
    renderCredentials(credentials.data);
  } catch (err) {
    showAlert(loadError, `Could not load tools: ${err.message}`);
  }
}

function remove(credential, button) {
  return confirmRemoval({
    confirm: {
      title: 'Delete credential?',
      message: `Agents using ${credential.tool} lose access to "${credential.name}".`,
      confirmLabel: 'Delete',
    },
    button,
    alertEl: loadError,
    remove: () => api.delete(`/console/api/tool-credentials/${encodeURIComponent(credential.id)}`),
    failure: `Could not delete "${credential.name}"`,
    reload: load,
  });
}

const form = byId('credential-form');
const inputs = {
  tool: byId('credential-tool'), name: byId('credential-name'),
  base_url: byId('credential-base-url'), secret: byId('credential-secret'),
};
const formError = byId('credential-error');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  for (const input of Object.values(inputs)) setFieldError(input, '');
  showAlert(formError, '');
  const body = { tool: inputs.tool.value, name: inputs.name.value.trim(), secret: inputs.secret.value };
  if (inputs.base_url.value.trim()) body.base_url = inputs.base_url.value.trim();
  const submit = form.querySelector('button[type="submit"]');
  submit.disabled = true;
  try {
    await api.post('/console/api/tool-credentials', body);
    form.reset();
    await load();
  } catch (err) {
    const unmatched = showFieldErrors(err, inputs);
    if (err.status !== 422 || unmatched.length) showAlert(formError, err.message, unmatched);
  } finally {
    submit.disabled = false;
  }
});

load().finally(pageLoaded);
