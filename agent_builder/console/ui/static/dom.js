// Small DOM helpers shared by the page scripts. Text always goes in as text nodes, never HTML.

// h('button', {type: 'button', onclick: fn}, 'Save'): attributes, listeners (on*), children.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  el.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return el;
}

// A page says it is ready once its data is shown and its controls work: until then its
// <main aria-busy="true"> tells assistive technology (and the acceptance suite) to wait.
export function pageLoaded() {
  document.getElementById('main').setAttribute('aria-busy', 'false');
}

export function byId(id) {
  return document.getElementById(id);
}

function formatDate(iso) {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function timeEl(iso) {
  return h('time', { datetime: iso }, formatDate(iso));
}

export function formatSize(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

// Shows `message` in an alert element (hidden when empty). `items` become a list under it.
export function showAlert(el, message, items = []) {
  el.replaceChildren();
  el.hidden = !message;
  if (!message) return;
  el.append(h('p', {}, message));
  if (items.length) el.append(h('ul', {}, items.map((item) => h('li', {}, item))));
}

// Inline field error: a message element after the input, linked with aria-describedby.
export function setFieldError(input, message) {
  const errorId = `${input.id}-error`;
  let errorEl = document.getElementById(errorId);
  if (!errorEl) {
    errorEl = h('p', { id: errorId, class: 'field-error' });
    input.after(errorEl);
  }
  errorEl.textContent = message || '';
  errorEl.hidden = !message;
  const described = new Set((input.getAttribute('aria-describedby') || '').split(' ').filter(Boolean));
  if (message) {
    described.add(errorId);
    input.setAttribute('aria-invalid', 'true');
  } else {
    described.delete(errorId);
    input.removeAttribute('aria-invalid');
  }
  if (described.size) input.setAttribute('aria-describedby', [...described].join(' '));
  else input.removeAttribute('aria-describedby');
}

// Maps a 422 `errors: [{field, message}]` body onto inputs keyed by field name; returns
// the messages that matched no input so the caller can show them in an alert.
export function showFieldErrors(err, inputsByField) {
  const unmatched = [];
  for (const { field, message } of err.body?.errors || []) {
    const name = String(field).split('.').pop();
    if (inputsByField[name]) setFieldError(inputsByField[name], message);
    else unmatched.push(message);
  }
  return unmatched;
}

// Upload refusals lead with the reason in plain words; the server's message adds the details.
export function uploadErrorText(err) {
  const reason = { 413: 'The file is too large.', 415: 'This file type is not supported.' }[err.status];
  return `Upload failed: ${reason ? `${reason} ${err.message}` : err.message}`;
}

// Copies text and says so next to the button for a few seconds.
export async function copyWithConfirmation(text, statusEl) {
  try {
    await navigator.clipboard.writeText(text);
    statusEl.textContent = 'Copied';
  } catch {
    statusEl.textContent = 'Copy failed: select the text and copy it manually';
  }
  clearTimeout(statusEl.copyTimer);
  statusEl.copyTimer = setTimeout(() => { statusEl.textContent = ''; }, 3000);
}

// A file input that uploads each file chosen: progress and success in `statusEl`, a refusal in
// `alertEl`; the input is cleared for the next file. `upload(file)` sends it; `after()`, when
// given, runs once the upload settled either way.
export function bindUpload({ input, statusEl, alertEl, upload, after }) {
  input.addEventListener('change', async () => {
    const file = input.files[0];
    if (!file) return;
    showAlert(alertEl, '');
    statusEl.textContent = `Uploading ${file.name}…`;
    try {
      await upload(file);
      statusEl.textContent = `Uploaded ${file.name}`;
    } catch (err) {
      statusEl.textContent = '';
      showAlert(alertEl, uploadErrorText(err));
    } finally {
      input.value = '';
    }
    if (after) await after();
  });
}

// Opens `dialog` as a modal (the page behind it inert, Tab kept inside, Escape closes it) and gives
// the focus back to `opener` when it closes. The browser does that itself only when the opener
// still had the focus as the dialog opened: a button disabled while its request ran has lost it.
export function openModal(dialog, opener) {
  dialog.showModal();
  dialog.addEventListener('close', () => opener.focus(), { once: true });
}

// Runs `work()` with `button` disabled. A disabled button drops the focus, so the keyboard user who
// pressed it gets it back once the button works again, unless they moved on meanwhile.
export async function whileDisabled(button, work) {
  const hadFocus = document.activeElement === button;
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
    if (hadFocus && document.activeElement === document.body) button.focus();
  }
}

// A modal confirmation; resolves true when the user confirms.
export function confirmDialog({ title, message, confirmLabel }) {
  return new Promise((resolve) => {
    const titleId = `confirm-title-${Date.now()}`;
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': titleId },
      h('h2', { id: titleId }, title),
      h('p', {}, message),
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'button', onclick: () => dialog.close('cancel') }, 'Cancel'),
        h('button', { type: 'button', class: 'button danger', onclick: () => dialog.close('confirm') }, confirmLabel)));
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'confirm');
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

// Deleting a row after a confirmation (`confirm`: confirmDialog's options): `remove()` runs with
// `button` disabled, a failure shows in `alertEl` as "<failure>: <reason>", and `reload()`
// redraws the list either way.
export async function confirmRemoval({ confirm, button, alertEl, remove, failure, reload }) {
  if (!(await confirmDialog(confirm))) return;
  button.disabled = true;
  showAlert(alertEl, '');
  try {
    await remove();
  } catch (err) {
    showAlert(alertEl, `${failure}: ${err.message}`);
  }
  await reload();
}

// The "Create …" dialogs (Name, Description, Create): `create({name, description})` returns
// the URL to open next; errors stay in the dialog, field errors next to their field.
export function bindCreateDialog({ openButton, dialog, create }) {
  const form = dialog.querySelector('form');
  const nameInput = form.elements.name;
  const descriptionInput = form.elements.description;
  const errorEl = form.querySelector('[role="alert"]');
  const submit = form.querySelector('button[type="submit"]');

  openButton.addEventListener('click', () => {
    form.reset();
    setFieldError(nameInput, '');
    setFieldError(descriptionInput, '');
    showAlert(errorEl, '');
    dialog.showModal();
  });
  form.querySelector('[data-cancel]').addEventListener('click', () => dialog.close());

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    setFieldError(nameInput, name ? '' : 'Name is required');
    setFieldError(descriptionInput, '');
    showAlert(errorEl, '');
    if (!name) return nameInput.focus();
    submit.disabled = true;
    try {
      location.assign(await create({ name, description: descriptionInput.value.trim() }));
    } catch (err) {
      submit.disabled = false;
      if (err.code === 'name_taken') return setFieldError(nameInput, err.message);
      const unmatched = showFieldErrors(err, { name: nameInput, description: descriptionInput });
      if (err.status !== 422 || unmatched.length) showAlert(errorEl, err.message, unmatched);
    }
  });
}
