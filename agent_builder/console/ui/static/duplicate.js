// "Duplicate agent" (roster and configure page): a dialog for the copy's name, then the copy's
// configure page. The server copies the draft, files and variables, nothing else.
import { api } from './api.js';
import { byId, setFieldError, showAlert, showFieldErrors } from './dom.js';

const MAX_NAME = 80;
const SUFFIX = ' (copy)';
const dialog = byId('duplicate-dialog');
const form = byId('duplicate-form');
const nameInput = byId('duplicate-name');
const errorEl = form.querySelector('[role="alert"]');
const submit = form.querySelector('button[type="submit"]');
let source = null;

// The server's default name: "<name> (copy)", shortened so it fits the name limit.
export function copyName(name) {
  return `${name.slice(0, MAX_NAME - SUFFIX.length).trimEnd()}${SUFFIX}`;
}

export function openDuplicateDialog(agent) {
  source = agent;
  form.reset();
  nameInput.value = copyName(agent.name);
  setFieldError(nameInput, '');
  showAlert(errorEl, '');
  submit.disabled = false;
  dialog.showModal();
  nameInput.select();
}

form.querySelector('[data-cancel]').addEventListener('click', () => dialog.close());

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const name = nameInput.value.trim();
  setFieldError(nameInput, name ? '' : 'Name is required');
  showAlert(errorEl, '');
  if (!name) return nameInput.focus();
  submit.disabled = true;
  try {
    const copy = await api.post(`/console/api/agents/${encodeURIComponent(source.id)}/duplicate`, { name });
    location.assign(`/agents/${encodeURIComponent(copy.id)}/configure`);
  } catch (err) {
    submit.disabled = false;
    const unmatched = showFieldErrors(err, { name: nameInput });
    if (err.status !== 422 || unmatched.length) showAlert(errorEl, err.message, unmatched);
  }
});
