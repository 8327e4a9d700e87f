// Tool settings: the builtin catalog with readiness, and credentials for tools that need one.
import { api } from './api.js';
import { byId, confirmRemoval, h, pageLoaded, setFieldError, showAlert, showFieldErrors, timeEl } from './dom.js';

const loadError = byId('load-error');
let tools = [];

// What each credential state reads as, and how its badge looks.
const STATES = {
  not_required: ['Ready', 'status-active'],
  configured: ['Credential configured', 'status-active'],
  missing: ['Needs credential', 'status-warning'],
  invalid: ['Credential invalid', 'status-error'],
};

function renderCatalog() {
  byId('catalog').replaceChildren(...tools.map((tool) => {
    const [text, style] = STATES[tool.credential_state];
    return h('li', { class: 'row' },
      h('div', { class: 'row-main' },
        h('p', { class: 'row-title' }, tool.label),
        h('p', { class: 'muted' }, tool.description)),
      h('span', { class: `badge ${style}` }, text));
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
    h('td', {}, checkText(credential)),
    h('td', {}, timeEl(credential.created_at)),
    h('td', { class: 'actions' },
      h('button', {
        type: 'button', class: 'button', 'aria-label': `Check ${credential.name}`,
        onclick: (event) => check(credential, event.currentTarget),
      }, 'Check'),
      h('button', {
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

function checkText(credential) {
  if (credential.check_status === 'valid') return 'Valid';
  if (credential.check_status === 'invalid') return `Invalid: ${credential.check_message}`;
  return 'Not checked';
}

// Checks the credential against its provider; the row and the catalog show the outcome at once.
async function check(credential, button) {
  showAlert(loadError, '');
  button.disabled = true;
  button.textContent = 'Checking…';
  try {
    await api.post(`/console/api/tool-credentials/${encodeURIComponent(credential.id)}/check`);
    await load();
  } catch (err) {
    button.disabled = false;
    button.textContent = 'Check';
    showAlert(loadError, `Could not check "${credential.name}": ${err.message}`);
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
