// Access point page: web app and service API switches, URLs, embed snippets, the web app's
// settings, API keys.
import { api } from './api.js';
import { agentPath, createPublishBar, loadAgent } from './agent_page.js';
import {
  byId, confirmRemoval, copyWithConfirmation, h, openModal, pageLoaded, setFieldError, showAlert,
  showFieldErrors, timeEl,
} from './dom.js';

const errorEl = byId('access-error');
let access;
let agentName = '';
let webAppSettings; // the draft's, as last loaded or saved

function escapeAttribute(text) {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function render() {
  const { published } = access;
  for (const el of document.querySelectorAll('.unavailable')) {
    el.textContent = access.unavailable_reason || '';
    el.hidden = published || !access.unavailable_reason;
  }

  byId('web-app-url').textContent = access.web_app_url || '—';
  const openLink = byId('open-web-app');
  if (published) {
    openLink.href = access.web_app_url;
    openLink.removeAttribute('aria-disabled');
  } else {
    openLink.removeAttribute('href');
    openLink.setAttribute('aria-disabled', 'true');
  }
  byId('copy-web-app-url').disabled = !published;
  byId('open-embed').disabled = !published;
  byId('web-app-enabled').disabled = !published;
  byId('web-app-enabled').checked = published && access.web_app_enabled;
  byId('web-app-status').textContent = !published ? ''
    : access.web_app_enabled ? 'Web app is enabled' : 'Web app is disabled';

  byId('service-api-url').textContent = access.service_api_base_url || '—';
  byId('api-reference').href = access.api_reference_url;
  byId('copy-service-api-url').disabled = !published;
  byId('service-api-enabled').disabled = !published;
  byId('service-api-enabled').checked = published && access.service_api_enabled;
  byId('service-api-status').textContent = !published ? ''
    : access.service_api_enabled ? 'Service API is enabled' : 'Service API is disabled';

  byId('create-key').disabled = !published;
}

async function setSwitch(input, field) {
  input.disabled = true;
  showAlert(errorEl, '');
  try {
    access = await api.patch(`${agentPath}/access`, { [field]: input.checked });
  } catch (err) {
    showAlert(errorEl, `Could not change access: ${err.message}`);
  }
  render(); // also puts the switch back when the change was refused
}

byId('web-app-enabled').addEventListener('change', (event) => setSwitch(event.target, 'web_app_enabled'));
byId('service-api-enabled').addEventListener('change', (event) => setSwitch(event.target, 'service_api_enabled'));
byId('copy-web-app-url').addEventListener('click', () => copyWithConfirmation(access.web_app_url, byId('web-app-copied')));
byId('copy-service-api-url').addEventListener('click',
  () => copyWithConfirmation(access.service_api_base_url, byId('service-api-copied')));

// ---------------------------------------------------------------- embed

const embedDialog = byId('embed-dialog');
const embedKinds = [...document.querySelectorAll('input[name="embed-kind"]')];

// The snippet of the chosen kind: the web app in an inline frame, or a script that adds a chat
// button to the site's pages, opening the web app in a frame of its own.
function embedCode(kind) {
  const url = escapeAttribute(access.web_app_url);
  const title = escapeAttribute(agentName);
  if (kind === 'script') {
    const script = escapeAttribute(`${new URL(access.web_app_url).origin}/static/embed.js`);
    return `<script src="${script}" data-web-app-url="${url}" data-title="${title}" defer></script>`;
  }
  return `<iframe src="${url}" title="${title}"`
    + ' style="width: 100%; height: 100%; min-height: 700px; border: 0"></iframe>';
}

function showEmbedCode() {
  const kind = embedKinds.find((input) => input.checked).value;
  byId('embed-code').value = embedCode(kind);
  byId('embed-hint').textContent = kind === 'script'
    ? "Paste this snippet into your site's HTML: it adds a chat button that opens the web app."
    : "Paste this snippet into your site's HTML where the web app should show.";
  byId('embed-copied').textContent = '';
}

for (const input of embedKinds) input.addEventListener('change', showEmbedCode);

function openEmbedDialog(opener) {
  showEmbedCode();
  openModal(embedDialog, opener);
}

byId('open-embed').addEventListener('click', (event) => openEmbedDialog(event.currentTarget));
byId('copy-embed').addEventListener('click', () => copyWithConfirmation(byId('embed-code').value, byId('embed-copied')));
byId('close-embed').addEventListener('click', () => embedDialog.close());

// ---------------------------------------------------------------- web app settings

const settingsDialog = byId('web-app-settings-dialog');
const settingsForm = byId('web-app-settings-form');
const settingsError = byId('web-app-settings-error');
const settingsInputs = {
  title: byId('web-app-title'),
  description: byId('web-app-description'),
  icon: byId('web-app-icon'),
  color: byId('web-app-color'),
  copyright: byId('web-app-copyright'),
  privacy_policy_url: byId('web-app-privacy-policy'),
  default_language: byId('web-app-language'),
};
const HTTP_URL = /^https?:\/\/[^\s/?#@]+(?:[/?][^\s#]*)?$/i;

function clearSettingsErrors() {
  for (const input of Object.values(settingsInputs)) setFieldError(input, '');
  showAlert(settingsError, '');
}

byId('open-web-app-settings').addEventListener('click', (event) => {
  for (const [field, input] of Object.entries(settingsInputs)) input.value = webAppSettings[field];
  clearSettingsErrors();
  openModal(settingsDialog, event.currentTarget);
  settingsInputs.title.focus();
});
byId('web-app-settings-cancel').addEventListener('click', () => settingsDialog.close());

settingsForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearSettingsErrors();
  const body = Object.fromEntries(Object.entries(settingsInputs).map(([field, input]) => [field, input.value.trim()]));
  if (body.privacy_policy_url && !HTTP_URL.test(body.privacy_policy_url)) {
    setFieldError(settingsInputs.privacy_policy_url, 'The privacy policy link must be an http:// or https:// URL.');
    settingsInputs.privacy_policy_url.focus();
    return;
  }
  const save = byId('web-app-settings-save');
  save.disabled = true;
  try {
    const draft = await api.put(`${agentPath}/draft/web-app`, body);
    webAppSettings = draft.config.web_app;
    settingsDialog.close();
    byId('web-app-copied').textContent = 'Settings saved. Publish to show them on the web app.';
    await publishBar.refresh();
  } catch (err) {
    const unmatched = err.status === 422 ? showFieldErrors(err, settingsInputs) : [err.message];
    if (unmatched.length) showAlert(settingsError, 'Could not save the settings', unmatched);
  } finally {
    save.disabled = false;
  }
});

// ---------------------------------------------------------------- API keys

const keysBody = byId('api-keys');

async function loadKeys() {
  try {
    const keys = (await api.get(`${agentPath}/api-keys`)).data;
    keysBody.replaceChildren(...keys.map((key) => h('tr', {},
      h('td', {}, h('code', {}, key.masked)),
      h('td', {}, timeEl(key.created_at)),
      h('td', {}, key.last_used_at ? timeEl(key.last_used_at) : 'Never'),
      h('td', { class: 'actions' }, h('button', {
        type: 'button', class: 'button danger-quiet', 'aria-label': `Revoke ${key.masked}`,
        onclick: (event) => revoke(key, event.currentTarget),
      }, 'Revoke')))));
    byId('api-keys-empty').hidden = keys.length > 0;
  } catch (err) {
    showAlert(errorEl, `Could not load API keys: ${err.message}`);
  }
}

function revoke(key, button) {
  return confirmRemoval({
    confirm: {
      title: 'Revoke API key?',
      message: `Anything using ${key.masked} stops working immediately.`,
      confirmLabel: 'Revoke',
    },
    button,
    alertEl: errorEl,
    remove: () => api.delete(`${agentPath}/api-keys/${encodeURIComponent(key.id)}`),
    failure: `Could not revoke ${key.masked}`,
    reload: loadKeys,
  });
}

const keyDialog = byId('key-dialog');
const newKeyInput = byId('new-key');

byId('create-key').addEventListener('click', async (event) => {
  const button = event.currentTarget;
  button.disabled = true;
  showAlert(errorEl, '');
  try {
    const created = await api.post(`${agentPath}/api-keys`, {});
    newKeyInput.value = created.secret;
    byId('key-copied').textContent = '';
    button.disabled = false; // the dialog gives the focus back to it
    openModal(keyDialog, button);
    newKeyInput.select();
    await loadKeys();
  } catch (err) {
    showAlert(errorEl, `Could not create an API key: ${err.message}`);
  } finally {
    button.disabled = false;
  }
});
byId('copy-key').addEventListener('click', () => copyWithConfirmation(newKeyInput.value, byId('key-copied')));
byId('key-done').addEventListener('click', () => keyDialog.close());
// The secret is shown once: drop it from the page however the dialog closes.
keyDialog.addEventListener('close', () => { newKeyInput.value = ''; });

// ---------------------------------------------------------------- load

const publishBar = createPublishBar({
  onPublished: (detail) => {
    access = detail.access;
    render();
    loadKeys();
  },
  onEmbed: (opener) => openEmbedDialog(opener),
});

async function load() {
  const detail = await loadAgent('Access point');
  if (!detail) return;
  agentName = detail.name;
  access = detail.access;
  webAppSettings = detail.draft.config.web_app;
  publishBar.update(detail);
  render();
  byId('open-web-app-settings').disabled = false;
  if (access.published) await loadKeys();
  // The publish guidance of the configure page links here to embed the web app.
  if (access.published && window.location.hash === '#embed') openEmbedDialog(byId('open-embed'));
}

load().finally(pageLoaded);
