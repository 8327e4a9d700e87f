// The configure page's Output variables card: named, typed outputs (an object has fields, an array
// an item type). It checks what the console checks (schemas/outputs.py: the same names, types,
// limits and messages), so an invalid list says what is wrong and saves nothing until it is put
// right. Renaming an output rewrites its references in the instructions ({{outputs.NAME}}, with
// or without spaces inside the braces, and a field's {{outputs.NAME.FIELD}}) in the same save.
import { byId, h, setFieldError } from './dom.js';

const MAX_OUTPUTS = 20;
const MAX_DEPTH = 3;
const MAX_NAME_CHARS = 64;
const TYPES = ['string', 'number', 'boolean', 'object', 'array'];
const ITEM_TYPES = ['string', 'number', 'boolean'];
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const list = byId('output-list');
const addButton = byId('add-output');
const instructions = byId('instructions');
let outputs = []; // rows: { name, type, items, description, fields, saved } (saved: the name last saved)
let binding;

function nameError(name) {
  if (!name) return 'An output name cannot be empty.';
  if (name.length > MAX_NAME_CHARS) return `The output name "${name.slice(0, 20)}…" is longer than ${MAX_NAME_CHARS} characters.`;
  if (!NAME.test(name)) return `"${name}" is not a valid output name: use letters, digits and underscores, not starting with a digit.`;
  return '';
}

// Why the rows cannot be saved, or '' when they can (the console's message for the first problem).
function outputsError(rows, depth = 1, parent = '') {
  const where = parent ? ` of "${parent}"` : '';
  if (rows.length > MAX_OUTPUTS) return `At most ${MAX_OUTPUTS} outputs${where}: this list has ${rows.length}.`;
  const seen = new Map();
  for (const row of rows) {
    const problem = nameError(row.name);
    if (problem) return problem;
    const path = parent ? `${parent}.${row.name}` : row.name;
    const key = row.name.toLowerCase();
    if (seen.has(key)) {
      const first = seen.get(key);
      return first === row.name ? `The output "${path}" is listed twice.`
        : `"${first}" and "${row.name}" are the same output name${where}: names ignore case.`;
    }
    seen.set(key, row.name);
    if (row.type === 'object' && row.fields.length && depth >= MAX_DEPTH) {
      return `Outputs nest at most ${MAX_DEPTH} levels: "${path}" has fields.`;
    }
    const inner = row.type === 'object' ? outputsError(row.fields, depth + 1, path) : '';
    if (inner) return inner;
  }
  return '';
}

function serialize(rows) {
  return rows.map((row) => ({
    name: row.name,
    type: row.type,
    description: row.description,
    items: row.type === 'array' ? row.items : 'string',
    fields: row.type === 'object' ? serialize(row.fields) : [],
  }));
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Every reference to the output at `from` (a dotted path) now names `to`; fields follow their object.
function renameReferences(text, from, to) {
  const pattern = new RegExp(`(\\{\\{\\s*outputs\\.)${escape(from)}(?=\\s*\\}\\}|\\.)`, 'g');
  return text.replace(pattern, `$1${to}`);
}

// Renames whose new name is saved now: each row's last saved name becomes its current name (an
// object first, so its fields' references already name the object as it is now).
function commitRenames(rows, text, parent = '') {
  for (const row of rows) {
    const path = (name) => (parent ? `${parent}.${name}` : name);
    if (row.saved && row.saved !== row.name) text = renameReferences(text, path(row.saved), path(row.name));
    row.saved = row.name;
    if (row.type === 'object') text = commitRenames(row.fields, text, path(row.name));
  }
  return text;
}

function changed() {
  const problem = outputsError(outputs);
  setFieldError(list, problem);
  if (problem) return;
  const before = binding.config().instructions;
  const after = commitRenames(outputs, before);
  if (after !== before) {
    binding.config().instructions = after;
    instructions.value = after;
  }
  binding.config().outputs = serialize(outputs);
  binding.edited();
}

const select = (label, options, value, onchange) => h('select', { 'aria-label': label, onchange },
  options.map((option) => h('option', { value: option, selected: option === value }, option)));

function rowEl(row, siblings, depth) {
  const fieldList = h('ul', { class: 'output-fields', 'aria-label': `Fields of ${row.name}` });
  const addField = h('button', { type: 'button', class: 'secondary' }, 'Add field');
  const items = select('Item type', ITEM_TYPES, row.items, (event) => { row.items = event.target.value; changed(); });
  const name = h('input', { type: 'text', value: row.name, 'aria-label': 'Output name', maxlength: 100, autocomplete: 'off' });
  const li = h('li', { class: 'output-row', role: 'group' });
  // Each row is a group named by its output, so its controls are read as that output's.
  const shape = () => {
    fieldList.hidden = row.type !== 'object';
    addField.hidden = row.type !== 'object' || depth >= MAX_DEPTH;
    items.hidden = row.type !== 'array';
    li.setAttribute('aria-label', row.name ? `Output ${row.name}` : 'New output');
    fieldList.setAttribute('aria-label', `Fields of ${row.name}`);
    addField.setAttribute('aria-label', `Add field to ${row.name}`);
  };
  name.addEventListener('input', () => { row.name = name.value.trim(); shape(); changed(); });
  const type = select('Output type', TYPES, row.type, (event) => { row.type = event.target.value; shape(); changed(); });
  const description = h('input', {
    type: 'text', value: row.description, 'aria-label': 'Output description', maxlength: 200, autocomplete: 'off',
    oninput: (event) => { row.description = event.target.value; changed(); },
  });
  const remove = h('button', { type: 'button', class: 'secondary', 'aria-label': 'Remove output' }, 'Remove');
  remove.addEventListener('click', () => {
    siblings.splice(siblings.indexOf(row), 1);
    li.remove();
    changed();
  });
  addField.addEventListener('click', () => add(row.fields, fieldList, depth + 1));
  fieldList.append(...row.fields.map((field) => rowEl(field, row.fields, depth + 1)));
  shape();
  li.append(h('div', { class: 'output-line' }, name, type, items, description, remove), fieldList, addField);
  return li;
}

function add(rows, into, depth) {
  const row = { name: '', type: 'string', items: 'string', description: '', fields: [], saved: '' };
  rows.push(row);
  const li = rowEl(row, rows, depth);
  into.append(li);
  li.querySelector('input').focus();
  changed();
}

const toRows = (saved) => saved.map((output) => ({ ...output, saved: output.name, fields: toRows(output.fields) }));

// `config()` is the draft being edited; `edited()` saves it.
export function bindOutputs({ config, edited }) {
  binding = { config, edited };
  addButton.addEventListener('click', () => add(outputs, list, 1));
}

// Shows the draft's outputs (at load, after a restore and after "Load latest").
export function showOutputs(saved) {
  outputs = toRows(saved);
  list.replaceChildren(...outputs.map((row) => rowEl(row, outputs, 1)));
  setFieldError(list, '');
}
