// Environment variables in the configure page's advanced settings: add, edit, delete and import
// a .env file. They are not part of the draft: every change is saved at once. Secret values are
// write-only: the server only ever sends back a masked form.
import { api } from './api.js';
import { agentPath } from './agent_page.js';
import { bindUpload, byId, confirmRemoval, h, setFieldError, showAlert, showFieldErrors } from './dom.js';

const base = `${agentPath}/env-vars`;
const body = byId('env-vars');
const emptyEl = byId('env-vars-empty');
const statusEl = byId('env-vars-status');
const errorEl = byId('env-vars-error');
const dialog = byId('env-var-dialog');
const form = byId('env-var-form');
const dialogError = form.querySelector('[role="alert"]');
const nameInput = byId('env-var-name');
const valueInput = byId('env-var-value');
const secretInput = byId('env-var-secret');
let variables = [];
let editing = null; // the variable being edited; null while adding

function valueCell(variable) {
  if (!variable.secret) return h('td', { class: 'mono' }, variable.value);
  return h('td', {}, h('span', { class: 'secret-value mono' }, variable.masked), ' ',
    h('span', { class: 'badge' }, 'Secret'));
}

function render() {
  body.replaceChildren(...variables.map((variable) => h('tr', {},
    h('th', { scope: 'row', class: 'mono' }, variable.name),
    valueCell(variable),
    h('td', { class: 'actions' },
      h('button', {
        type: 'button', class: 'button small', 'aria-label': `Edit ${variable.name}`, 'data-edit': variable.name,
        onclick: () => openDialog(variable),
      }, 'Edit'), ' ',
      h('button', {
        type: 'button', class: 'button small danger-quiet', 'aria-label': `Delete ${variable.name}`,
        onclick: (event) => remove(variable, event.currentTarget),
      }, 'Delete')))));
  emptyEl.hidden = variables.length > 0;
}

export async function loadEnvVars() {
  variables = (await api.get(base)).data;
  render();
}

function openDialog(variable) {
  editing = variable;
  form.reset();
  [nameInput, valueInput].forEach((input) => setFieldError(input, ''));
  showAlert(dialogError, '');
  byId('env-var-title').textContent = variable ? `Edit ${variable.name}` : 'Add variable';
  nameInput.value = variable ? variable.name : '';
  nameInput.readOnly = Boolean(variable);
  valueInput.value = variable && !variable.secret ? variable.value : '';
  secretInput.checked = Boolean(variable?.secret);
  byId('env-var-value-hint').textContent = variable?.secret
    ? 'Secret value not shown. Leave empty to keep it, or enter a new one.' : '';
  dialog.showModal();
  (variable ? valueInput : nameInput).focus();
}

async function save() {
  const secret = secretInput.checked;
  if (!editing) {
    return api.post(base, { name: nameInput.value.trim(), value: valueInput.value, secret });
  }
  const keepSecretValue = editing.secret && valueInput.value === '';
  const change = keepSecretValue ? { secret } : { value: valueInput.value, secret };
  return api.patch(`${base}/${encodeURIComponent(editing.name)}`, change);
}

form.querySelector('[data-cancel]').addEventListener('click', () => dialog.close());
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  [nameInput, valueInput].forEach((input) => setFieldError(input, ''));
  showAlert(dialogError, '');
  const submit = form.querySelector('button[type="submit"]');
  submit.disabled = true;
  try {
    const saved = await save();
    const edited = editing;
    dialog.close();
    statusEl.textContent = `Saved ${saved.name}`;
    await loadEnvVars();
    // The list was drawn again: the focus goes back to the new row's Edit button.
    if (edited) body.querySelector(`button[data-edit="${CSS.escape(saved.name)}"]`)?.focus();
  } catch (err) {
    if (err.code === 'env_var_exists') setFieldError(nameInput, err.message);
    else if (err.code === 'value_required') setFieldError(valueInput, err.message);
    else if (err.code === 'secret_in_instructions') showAlert(dialogError, err.message);
    else {
      const unmatched = showFieldErrors(err, { name: nameInput, value: valueInput });
      if (err.status !== 422 || unmatched.length) showAlert(dialogError, err.message, unmatched);
    }
  } finally {
    submit.disabled = false;
  }
});

byId('add-env-var').addEventListener('click', () => openDialog(null));

function remove(variable, button) {
  return confirmRemoval({
    confirm: { title: `Delete ${variable.name}?`, message: 'The agent will no longer get this variable.', confirmLabel: 'Delete' },
    button,
    alertEl: errorEl,
    remove: async () => {
      await api.delete(`${base}/${encodeURIComponent(variable.name)}`);
      statusEl.textContent = `Deleted ${variable.name}`;
    },
    failure: `Could not delete ${variable.name}`,
    reload: loadEnvVars,
  });
}

function importSummary(result) {
  const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const count = result.added.length + result.updated.length;
  const sentences = [`Imported ${plural(count, 'variable')}: ${result.added.length} added, `
    + `${result.updated.length} updated, ${plural(result.skipped.length, 'line')} skipped.`];
  for (const item of result.duplicates) {
    sentences.push(`${item.name} is set on lines ${item.lines.join(', ')}: the last one counts.`);
  }
  return sentences.join(' ');
}

const report = byId('env-import-report');
bindUpload({
  input: byId('env-file-upload'),
  statusEl,
  alertEl: errorEl,
  upload: async (file) => {
    report.hidden = true;
    byId('env-import-summary').textContent = '';
    const result = await api.upload(`${base}/import`, file);
    byId('env-import-skipped').replaceChildren(...result.skipped.map((item) => h('li', {}, `Line ${item.line}: ${item.reason}`)));
    report.hidden = result.skipped.length === 0;
    byId('env-import-summary').textContent = importSummary(result);
    await loadEnvVars();
  },
});
