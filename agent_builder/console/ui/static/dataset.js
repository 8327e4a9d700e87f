// Dataset page: upload documents, watch indexing, inspect segments, test retrieval.
import { api } from './api.js';
import { bindUpload, byId, formatSize, h, pageLoaded, setFieldError, showAlert } from './dom.js';

const POLL_MS = 1000;
const datasetId = document.querySelector('main').dataset.datasetId;
const datasetPath = `/console/api/datasets/${encodeURIComponent(datasetId)}`;

let documents = [];
let selected = null; // the document whose segments are shown
let pollTimer = null;

// ---------------------------------------------------------------- documents

const uploadInput = byId('document-upload');
const uploadError = byId('upload-error');
const uploadStatus = byId('upload-status');

function documentRow(doc) {
  const statusCell = h('td', {}, h('span', { class: `status status-${doc.indexing_status}` }, doc.indexing_status));
  if (doc.indexing_status === 'error' && doc.error) statusCell.append(h('p', { class: 'field-error' }, doc.error));
  return h('tr', {},
    h('td', {}, h('button', {
      type: 'button', class: 'link-button', 'aria-controls': 'segments-card', 'data-document-id': doc.id,
      'aria-expanded': String(selected?.id === doc.id),
      onclick: () => showSegments(doc),
    }, doc.name)),
    h('td', {}, formatSize(doc.size)),
    statusCell,
    h('td', {}, String(doc.segment_count)),
    h('td', { class: 'actions' }, h('button', {
      type: 'button', class: 'button danger-quiet', 'aria-label': `Delete ${doc.name}`,
      onclick: (event) => deleteDocument(doc, event.currentTarget),
    }, 'Delete')));
}

async function loadDocuments() {
  clearTimeout(pollTimer);
  try {
    documents = (await api.get(`${datasetPath}/documents`)).data;
  } catch (err) {
    showAlert(uploadError, `Could not load documents: ${err.message}`);
    return;
  }
  byId('documents').replaceChildren(...documents.map(documentRow));
  byId('documents-empty').hidden = documents.length > 0;
  // Indexing runs in the background on the server; keep the statuses current until it settles.
  if (documents.some((doc) => doc.indexing_status === 'waiting' || doc.indexing_status === 'indexing')) {
    pollTimer = setTimeout(loadDocuments, POLL_MS);
  }
}

bindUpload({
  input: uploadInput,
  statusEl: uploadStatus,
  alertEl: uploadError,
  upload: (file) => api.upload(`${datasetPath}/documents`, file),
  after: loadDocuments,
});

async function deleteDocument(doc, button) {
  button.disabled = true;
  showAlert(uploadError, '');
  try {
    await api.delete(`${datasetPath}/documents/${encodeURIComponent(doc.id)}`);
    uploadStatus.textContent = `Deleted ${doc.name}`;
    if (selected?.id === doc.id) {
      selected = null;
      byId('segments-card').hidden = true;
    }
  } catch (err) {
    showAlert(uploadError, `Could not delete ${doc.name}: ${err.message}`);
  }
  await loadDocuments();
  uploadInput.focus();
}

// ---------------------------------------------------------------- segments

async function showSegments(doc) {
  selected = doc;
  const card = byId('segments-card');
  byId('segments-heading').textContent = `Segments of ${doc.name}`;
  card.hidden = false;
  for (const button of document.querySelectorAll('#documents [data-document-id]')) {
    button.setAttribute('aria-expanded', String(button.dataset.documentId === doc.id));
  }
  let segments;
  try {
    segments = (await api.get(`${datasetPath}/documents/${encodeURIComponent(doc.id)}/segments`)).data;
  } catch (err) {
    showAlert(uploadError, `Could not load segments: ${err.message}`);
    return;
  }
  byId('segments').replaceChildren(...segments.map((segment, index) => {
    const checkbox = h('input', { type: 'checkbox', checked: segment.enabled, 'aria-label': `Enable segment ${index + 1}` });
    checkbox.addEventListener('change', () => setSegmentEnabled(segment, checkbox));
    return h('li', { class: 'segment' },
      h('div', { class: 'segment-header' },
        h('span', { class: 'muted' }, `Segment ${index + 1}`),
        h('label', { class: 'check-inline' }, checkbox, 'Enabled')),
      h('p', { class: 'segment-content' }, segment.content));
  }));
  byId('segments-empty').hidden = segments.length > 0;
  card.scrollIntoView({ block: 'nearest' });
}

async function setSegmentEnabled(segment, checkbox) {
  checkbox.disabled = true;
  try {
    await api.patch(`${datasetPath}/segments/${encodeURIComponent(segment.id)}`, { enabled: checkbox.checked });
  } catch (err) {
    checkbox.checked = !checkbox.checked;
    showAlert(uploadError, `Could not change the segment: ${err.message}`);
  } finally {
    checkbox.disabled = false;
  }
}

// ---------------------------------------------------------------- retrieval test

const retrievalForm = byId('retrieval-form');
const queryInput = byId('query');
const topKInput = byId('retrieval-top-k');

retrievalForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const query = queryInput.value.trim();
  const topK = Number(topKInput.value);
  const topKValid = Number.isInteger(topK) && topK >= 1 && topK <= 20;
  setFieldError(queryInput, query ? '' : 'Enter a query');
  setFieldError(topKInput, topKValid ? '' : 'Top K must be between 1 and 20');
  if (!query || !topKValid) return;
  const errorEl = byId('retrieval-error');
  const submit = retrievalForm.querySelector('button[type="submit"]');
  showAlert(errorEl, '');
  submit.disabled = true;
  try {
    const { records } = await api.post(`${datasetPath}/retrieve`, { query, top_k: topK });
    byId('results').replaceChildren(...records.map((record) => h('li', { class: 'result' },
      h('p', { class: 'segment-content' }, record.content),
      h('p', { class: 'muted' }, `${record.document_name} · Score ${record.score.toFixed(2)}`))));
    byId('results-empty').hidden = records.length > 0;
  } catch (err) {
    showAlert(errorEl, `Retrieval failed: ${err.message}`);
  } finally {
    submit.disabled = false;
  }
});

// ---------------------------------------------------------------- load

async function load() {
  try {
    const dataset = await api.get(datasetPath);
    byId('dataset-name').textContent = dataset.name;
    byId('dataset-description').textContent = dataset.description || '';
    document.title = `${dataset.name} · Knowledge · Agent Builder`;
  } catch (err) {
    byId('dataset-name').textContent = err.status === 404 ? 'Dataset not found' : 'Dataset unavailable';
    showAlert(byId('load-error'), err.status === 404 ? 'This dataset does not exist or was deleted.' : err.message);
    return;
  }
  await loadDocuments();
}

load().finally(pageLoaded);
