// The configure page's agent files: list, upload, delete. Files are not part of the draft: each
// change is saved at once.
import { api } from './api.js';
import { agentPath } from './agent_page.js';
import { bindUpload, byId, formatSize, h, showAlert, timeEl } from './dom.js';

let files = [];

const fileInput = byId('file-upload');
const fileError = byId('file-error');
const fileStatus = byId('file-status');

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
}

async function deleteFile(file, button) {
  button.disabled = true;
  showAlert(fileError, '');
  try {
    await api.delete(`${agentPath}/files/${encodeURIComponent(file.id)}`);
    files = files.filter((other) => other.id !== file.id);
    fileStatus.textContent = `Deleted ${file.name}`;
    renderFiles();
    fileInput.focus();
  } catch (err) {
    button.disabled = false;
    showAlert(fileError, `Could not delete ${file.name}: ${err.message}`);
  }
}

bindUpload({
  input: fileInput,
  statusEl: fileStatus,
  alertEl: fileError,
  upload: async (file) => {
    files = [await api.upload(`${agentPath}/files`, file), ...files];
    renderFiles();
  },
});

export async function loadFiles() {
  files = (await api.get(`${agentPath}/files`)).data;
  renderFiles();
}
