// The configure page's agent files: list, upload, delete. Files are not part of the draft: each
// change is saved at once. Several uploads may be in progress at once: the status names each one
// until it settles; an in-app link waits for them to settle before it leaves, and leaving the page
// otherwise (reload, close) asks first. The list keeps the server's order
// (oldest first), and at the agent's file limit the upload field is disabled and says why.
import { api } from './api.js';
import { agentPath } from './agent_page.js';
import { byId, formatSize, h, showAlert, timeEl, uploadErrorText } from './dom.js';
import { guardLeave } from './nav.js';

let files = [];
let limit = null;
const uploading = []; // names of the uploads in progress, in the order they started
const inFlight = new Set(); // their promises, settled either way
let settled = ''; // what the last settled upload did: "Uploaded a.txt"

const fileInput = byId('file-upload');
const fileError = byId('file-error');
const fileStatus = byId('file-status');
const fileCount = byId('file-count');
fileInput.setAttribute('aria-describedby', 'file-hint file-count');

function renderFiles() {
  byId('files').replaceChildren(...(files.length
    ? files.map((file) => h('li', { class: 'row' },
      h('span', { class: 'row-main' }, file.name),
      h('span', { class: 'muted' }, formatSize(file.size)),
      h('span', { class: 'muted' }, timeEl(file.created_at)),
      h('button', {
        type: 'button', class: 'button danger-quiet', 'aria-label': `Delete ${file.name}`,
        onclick: (event) => deleteFile(file, event.currentTarget),
      }, 'Delete')))
    : [h('li', { class: 'empty' }, 'No files yet')]));
  renderCount();
}

function renderCount() {
  if (limit === null) return;
  const full = files.length >= limit;
  fileInput.disabled = full;
  fileCount.textContent = full
    ? `${files.length} of ${limit} files: delete a file to upload another.`
    : `${files.length} of ${limit} files`;
}

function renderStatus() {
  const pending = uploading.length ? `Uploading ${uploading.join(', ')}…` : '';
  fileStatus.textContent = [settled, pending].filter(Boolean).join(' · ');
}

async function deleteFile(file, button) {
  button.disabled = true;
  showAlert(fileError, '');
  try {
    await api.delete(`${agentPath}/files/${encodeURIComponent(file.id)}`);
    files = files.filter((other) => other.id !== file.id);
    settled = `Deleted ${file.name}`;
    renderStatus();
    renderFiles();
    fileInput.focus();
  } catch (err) {
    button.disabled = false;
    showAlert(fileError, `Could not delete ${file.name}: ${err.message}`);
  }
}

async function upload(file) {
  showAlert(fileError, '');
  uploading.push(file.name);
  renderStatus();
  try {
    const stored = await api.upload(`${agentPath}/files`, file);
    files = [...files, stored]; // the list as it is now: other uploads may have settled meanwhile
    settled = `Uploaded ${file.name}`;
    renderFiles();
  } catch (err) {
    settled = '';
    showAlert(fileError, uploadErrorText(err));
  } finally {
    uploading.splice(uploading.indexOf(file.name), 1);
    renderStatus();
  }
}

fileInput.addEventListener('change', () => {
  const file = fileInput.files[0];
  fileInput.value = ''; // ready for the next file, even while this one uploads
  if (!file) return;
  const done = upload(file);
  inFlight.add(done);
  done.finally(() => inFlight.delete(done));
});

// An in-app link leaves once every upload in progress has settled: none is cut off.
guardLeave(async () => {
  await Promise.all([...inFlight]);
  return true;
});

// An upload in progress is lost if the page goes: the browser asks the user first.
window.addEventListener('beforeunload', (event) => {
  if (uploading.length) event.preventDefault();
});

export async function loadFiles() {
  ({ data: files, limit } = await api.get(`${agentPath}/files`));
  renderFiles();
}
