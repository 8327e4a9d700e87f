// The configure page's skills: folders with a SKILL.md, part of the draft. An upload (a .zip, or
// the folder's files), a replacement and a removal each wait for the draft's edits to be saved,
// hold the fields while the console changes the draft, then show the draft it became (one new
// revision). The list keeps the draft's order; at the limit the upload field says why it is off.
import { api } from './api.js';
import { agentPath } from './agent_page.js';
import { byId, h, showAlert, uploadErrorText } from './dom.js';

const MAX_SKILLS = 10;

const input = byId('skill-upload');
const errorEl = byId('skill-error');
const statusEl = byId('skill-status');
const countEl = byId('skill-count');
let handle = null;
let busy = false;

function form(files) {
  const body = new FormData();
  // A file picked from a folder keeps its path inside it; the console drops the folder's name.
  for (const file of files) body.append('files', file, file.webkitRelativePath || file.name);
  return body;
}

// Runs one change of the skills: `send` resolves to the new draft; `done` says what happened.
async function change(send, done) {
  if (busy) return;
  showAlert(errorEl, '');
  if (!(await handle.settle())) {
    showAlert(errorEl, 'Your latest changes are not saved: save them first.');
    return;
  }
  busy = true;
  statusEl.textContent = 'Saving the skills…';
  handle.hold(true);
  try {
    handle.replace(await send());
    statusEl.textContent = done;
  } catch (err) {
    statusEl.textContent = '';
    showAlert(errorEl, uploadErrorText(err));
  } finally {
    busy = false;
    handle.hold(false);
  }
}

function row(skill) {
  const replaceId = `skill-replace-${skill.name}`;
  const count = skill.files.length === 1 ? '1 file' : `${skill.files.length} files`;
  const replace = h('input', {
    id: replaceId, type: 'file', multiple: '', class: 'visually-hidden', accept: input.accept,
    'aria-label': `Replace ${skill.name}`,
    onchange: (event) => {
      const files = [...event.currentTarget.files];
      if (!files.length) return;
      const path = `${agentPath}/skills/${encodeURIComponent(skill.name)}`;
      change(() => api.sendForm('PUT', path, form(files)), `Replaced ${skill.name}`);
    },
  });
  return h('li', { class: 'row' },
    h('span', { class: 'row-main' }, h('strong', {}, skill.name), ' ', h('span', {}, skill.description)),
    h('span', { class: 'muted' }, count),
    replace,
    h('label', { for: replaceId, class: 'button', 'aria-hidden': 'true' }, 'Replace'),
    h('button', {
      type: 'button', class: 'button danger-quiet', 'aria-label': `Remove ${skill.name}`,
      onclick: () => change(
        () => api.delete(`${agentPath}/skills/${encodeURIComponent(skill.name)}`), `Removed ${skill.name}`,
      ),
    }, 'Remove'));
}

// Shows the draft's skills: at load, after each change, a restore and "Load latest".
export function showSkills(skills) {
  byId('skills').replaceChildren(...(skills.length
    ? skills.map(row)
    : [h('li', { class: 'empty' }, 'No skills yet')]));
  const full = skills.length >= MAX_SKILLS;
  input.disabled = full;
  countEl.textContent = full
    ? `${skills.length} of ${MAX_SKILLS} skills: remove a skill to add another.`
    : `${skills.length} of ${MAX_SKILLS} skills`;
}

export function mountSkills(draftHandle) {
  handle = draftHandle;
  input.addEventListener('change', () => {
    const files = [...input.files];
    input.value = '';
    if (!files.length) return;
    const label = files.length === 1 ? files[0].name : `${files.length} files`;
    change(() => api.sendForm('POST', `${agentPath}/skills`, form(files)), `Uploaded ${label}`);
  });
}
