// Model providers: add (the server validates with a real call), revalidate, delete, and
// activate the models each provider lists.
import { api } from './api.js';
import { mountConsoleModels } from './console_models.js';
import { byId, confirmRemoval, h, pageLoaded, setFieldError, showAlert, showFieldErrors, timeEl } from './dom.js';

const providersEl = byId('providers');
const listError = byId('list-error');
const consoleModels = mountConsoleModels(); // its choices follow the providers and their models

function modelItem(model) {
  const id = `model-${model.id}`;
  const checkbox = h('input', { type: 'checkbox', id, checked: model.active });
  checkbox.addEventListener('change', async () => {
    checkbox.disabled = true;
    showAlert(listError, '');
    try {
      const path = `/console/api/model-providers/${encodeURIComponent(model.provider_id)}/models/${encodeURIComponent(model.id)}`;
      Object.assign(model, await api.patch(path, { active: checkbox.checked }));
      await consoleModels.refresh();
    } catch (err) {
      checkbox.checked = model.active;
      showAlert(listError, `Could not change ${model.name}: ${err.message}`);
    } finally {
      checkbox.disabled = false;
    }
  });
  return h('li', { class: 'check-item' }, checkbox,
    h('label', { for: id }, h('span', { class: 'visually-hidden' }, 'Activate '), model.name));
}

function providerCard(provider) {
  const headingId = `provider-${provider.id}`;
  const statusEl = h('p', { class: 'muted', role: 'status' });
  const validateButton = h('button', {
    type: 'button', class: 'button', 'aria-label': `Validate ${provider.name}`,
    onclick: () => validate(provider, validateButton, statusEl),
  }, 'Validate');
  return h('article', { class: 'card', 'aria-labelledby': headingId, 'data-provider-id': provider.id },
    h('div', { class: 'card-header' },
      h('h2', { id: headingId }, provider.name),
      h('span', { class: `badge status-${provider.status}` }, provider.status)),
    h('dl', { class: 'meta' },
      h('dt', {}, 'Base URL'), h('dd', {}, h('code', {}, provider.base_url)),
      h('dt', {}, 'API key'), h('dd', {}, h('code', {}, provider.api_key_masked)),
      provider.validated_at ? [h('dt', {}, 'Validated'), h('dd', {}, timeEl(provider.validated_at))] : null),
    provider.status === 'invalid' && provider.error
      ? h('div', { class: 'alert', role: 'alert' }, h('p', {}, provider.error)) : null,
    h('div', { class: 'inline' },
      validateButton,
      h('button', {
        type: 'button', class: 'button danger-quiet', 'aria-label': `Delete ${provider.name}`,
        onclick: (event) => remove(provider, event.currentTarget),
      }, 'Delete'),
      statusEl),
    h('h3', {}, 'Models'),
    provider.models.length
      ? h('ul', { class: 'check-list', 'aria-label': `Models of ${provider.name}` }, provider.models.map(modelItem))
      : h('p', { class: 'empty' }, 'No models'));
}

async function load() {
  try {
    const providers = (await api.get('/console/api/model-providers')).data;
    providersEl.replaceChildren(...providers.map(providerCard));
    byId('providers-empty').hidden = providers.length > 0;
    await consoleModels.refresh();
  } catch (err) {
    showAlert(listError, `Could not load model providers: ${err.message}`);
  }
}

async function validate(provider, button, statusEl) {
  button.disabled = true;
  statusEl.textContent = 'Validating…';
  try {
    const updated = await api.post(`/console/api/model-providers/${encodeURIComponent(provider.id)}/validate`);
    const card = providerCard(updated);
    providersEl.querySelector(`[data-provider-id="${CSS.escape(provider.id)}"]`).replaceWith(card);
    card.querySelector('[role="status"]').textContent = `Validated: ${updated.status}`;
    card.querySelector('button').focus();
  } catch (err) {
    button.disabled = false;
    statusEl.textContent = '';
    showAlert(listError, `Could not validate ${provider.name}: ${err.message}`);
  }
}

function remove(provider, button) {
  return confirmRemoval({
    confirm: {
      title: 'Delete provider?',
      message: `"${provider.name}" and its models will be removed. Agents using them can't be published until they use another model.`,
      confirmLabel: 'Delete',
    },
    button,
    alertEl: listError,
    remove: () => api.delete(`/console/api/model-providers/${encodeURIComponent(provider.id)}`),
    failure: `Could not delete ${provider.name}`,
    reload: load,
  });
}

// ---------------------------------------------------------------- add form

const form = byId('add-form');
const inputs = { name: byId('provider-name'), base_url: byId('provider-base-url'), api_key: byId('provider-api-key') };
const addError = byId('add-error');
const addStatus = byId('add-status');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const body = {
    name: inputs.name.value.trim(), base_url: inputs.base_url.value.trim(), api_key: inputs.api_key.value,
  };
  for (const input of Object.values(inputs)) setFieldError(input, '');
  showAlert(addError, '');
  const submit = form.querySelector('button[type="submit"]');
  submit.disabled = true;
  addStatus.textContent = 'Checking the provider…';
  try {
    const provider = await api.post('/console/api/model-providers', body);
    form.reset();
    addStatus.textContent = `Added ${provider.name}: ${provider.status}`;
    await load();
  } catch (err) {
    addStatus.textContent = '';
    if (err.code === 'name_taken') setFieldError(inputs.name, err.message);
    else {
      const unmatched = showFieldErrors(err, inputs);
      if (err.status !== 422 || unmatched.length) showAlert(addError, err.message, unmatched);
    }
  } finally {
    submit.disabled = false;
  }
});

load().finally(pageLoaded);
