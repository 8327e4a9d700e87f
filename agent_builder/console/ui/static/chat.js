// Public web app: a conversation with the published agent. Replies stream in as server-sent
// events (docs/console.md, "Web app"); the conversation id is kept per site in localStorage so a
// reload restores the conversation from the server.
import { byId, h, pageLoaded } from './dom.js';

const siteToken = document.querySelector('main').dataset.siteToken;
const agentName = document.querySelector('h1').textContent;
const apiBase = `/chat/${encodeURIComponent(siteToken)}/api`;
const storageKey = `agent-builder.conversation.${siteToken}`;
const log = byId('conversation');
const form = byId('composer');
const input = byId('message');
const sendButton = byId('send');
const stopButton = byId('stop');
const newButton = byId('new-conversation');
const suggestions = document.querySelectorAll('.suggestion');

let conversationId = localStorage.getItem(storageKey);
// While a reply streams: its message id (once the server named it) and whether Stop was pressed.
let streaming = null;

class ChatError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

async function responseError(response) {
  const body = await response.json().catch(() => null);
  return new ChatError(body?.code || 'http_error', body?.message || `Request failed (HTTP ${response.status}).`);
}

async function request(path, init) {
  try {
    return await fetch(`${apiBase}${path}`, init);
  } catch {
    throw new ChatError('network_error', 'Could not reach the server. Check your connection.');
  }
}

function errorAlert(code, message) {
  return h('div', { class: 'alert', role: 'alert', 'data-code': code },
    h('p', {}, message), h('p', { class: 'error-code' }, `Error code: ${code}`));
}

// Follow the conversation as it grows, unless the reader scrolled up to read something.
function keepScrolled(pinned) {
  if (pinned) window.scrollTo({ top: document.documentElement.scrollHeight });
}

function nearBottom() {
  return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 120;
}

function append(el) {
  const pinned = nearBottom();
  log.append(el);
  keepScrolled(pinned);
}

function userMessage(text) {
  return h('article', { class: 'message user', 'aria-label': 'You' },
    h('p', { class: 'message-role' }, 'You'), h('div', { class: 'message-text' }, text));
}

function formatArguments(args) {
  return typeof args === 'string' ? args : JSON.stringify(args, null, 2);
}

function toolCallGroup({ name, arguments: args, output, is_error: isError }) {
  const done = output !== null && output !== undefined;
  const state = !done ? 'Running…' : isError ? 'Failed' : 'Done';
  return h('div', { class: `tool-call${isError ? ' error' : ''}`, role: 'group', 'aria-label': `Tool ${name}` },
    h('p', { class: 'tool-title' }, 'Tool ', h('code', {}, name), h('span', { class: 'tool-state' }, state)),
    h('p', { class: 'tool-label' }, 'Arguments'),
    h('pre', {}, formatArguments(args)),
    done && h('p', { class: 'tool-label' }, isError ? 'Error' : 'Result'),
    done && h('pre', {}, output));
}

// An agent reply: built live from stream events, or at once from a stored ChatMessage.
class AgentMessage {
  constructor() {
    this.calls = new Map(); // tool call id -> {name, arguments, output, is_error}
    this.tools = h('div', { class: 'tool-calls' });
    this.text = h('div', { class: 'message-text' });
    this.el = h('article', { class: 'message assistant', 'aria-label': 'Agent', 'aria-busy': 'true' },
      h('p', { class: 'message-role' }, agentName), this.tools, this.text);
  }

  static stored(message) {
    const reply = new AgentMessage();
    reply.finish(message);
    return reply;
  }

  addText(text) {
    const pinned = nearBottom();
    this.text.append(text);
    keepScrolled(pinned);
  }

  toolCall(call) {
    this.calls.set(call.id, { ...call, output: null, is_error: false });
    this.renderTools();
  }

  toolResult(result) {
    const call = this.calls.get(result.id);
    if (call) Object.assign(call, { output: result.output, is_error: result.is_error });
    this.renderTools();
  }

  renderTools() {
    const pinned = nearBottom();
    this.tools.replaceChildren(...[...this.calls.values()].map(toolCallGroup));
    keepScrolled(pinned);
  }

  // The stored message is the truth: the page shows exactly what a reload would show.
  finish(message) {
    this.calls = new Map(message.tool_calls.map((call) => [call.id, call]));
    this.renderTools();
    this.text.textContent = message.content;
    if (message.status === 'cancelled') this.el.append(h('p', { class: 'message-status' }, 'Stopped'));
    if (message.status === 'failed') this.el.append(errorAlert(message.error.code, message.error.message));
    this.el.removeAttribute('aria-busy');
  }

  fail(error) {
    this.el.append(errorAlert(error.code, error.message));
    this.el.removeAttribute('aria-busy');
  }
}

// Yields {event, data} for each server-sent event as soon as it is complete.
async function* readEvents(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      yield { event, data: JSON.parse(data.join('\n')) };
    }
  }
}

function setComposerEnabled(enabled) {
  input.disabled = !enabled;
  sendButton.disabled = !enabled;
  newButton.disabled = !enabled;
  for (const button of suggestions) button.disabled = !enabled;
}

function setStreaming(on) {
  const composerFocused = form.contains(document.activeElement);
  streaming = on ? { messageId: null, stopRequested: false } : null;
  setComposerEnabled(!on);
  sendButton.hidden = on;
  stopButton.hidden = !on;
  stopButton.disabled = false;
  // Disabling the composer drops its focus; keyboard users land on Stop instead.
  if (on && composerFocused) stopButton.focus();
}

function rememberConversation(id) {
  conversationId = id;
  localStorage.setItem(storageKey, id);
  newButton.hidden = false;
}

function forgetConversation() {
  conversationId = null;
  localStorage.removeItem(storageKey);
  newButton.hidden = true;
}

async function send(query) {
  append(userMessage(query));
  setStreaming(true);
  const reply = new AgentMessage();
  try {
    const body = conversationId ? { query, conversation_id: conversationId } : { query };
    const response = await request('/messages', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await responseError(response);
    append(reply.el);
    let ended = false;
    for await (const { event, data } of readEvents(response)) {
      if (event === 'message_start') {
        rememberConversation(data.conversation_id);
        streaming.messageId = data.message_id;
        if (streaming.stopRequested) stop();
      } else if (event === 'message_delta') reply.addText(data.text);
      else if (event === 'tool_call') reply.toolCall(data);
      else if (event === 'tool_result') reply.toolResult(data);
      else if (event === 'message_end') {
        reply.finish(data);
        ended = true;
      } else if (event === 'error') throw new ChatError(data.code, data.message);
    }
    if (!ended) {
      throw new ChatError('stream_interrupted', 'The reply was interrupted. Reload the page to see what was saved.');
    }
  } catch (err) {
    const error = err instanceof ChatError ? err : new ChatError('stream_interrupted', 'The reply was interrupted.');
    if (reply.el.isConnected) reply.fail(error);
    else append(errorAlert(error.code, error.message));
  } finally {
    setStreaming(false);
    input.focus();
  }
}

// Stop pressed before the server named the reply takes effect as soon as it does.
async function stop() {
  if (!streaming) return;
  stopButton.disabled = true;
  if (!streaming.messageId) {
    streaming.stopRequested = true;
    return;
  }
  try {
    const response = await request(`/messages/${encodeURIComponent(streaming.messageId)}/stop`, { method: 'POST' });
    if (!response.ok) throw await responseError(response);
    // The stream itself ends with the stopped message.
  } catch (err) {
    append(errorAlert(err.code, `Could not stop the reply: ${err.message}`));
    stopButton.disabled = false;
  }
}

// Shows the stored conversation again (no model call): after a reload, or when coming back.
async function restore() {
  if (!conversationId) return;
  setComposerEnabled(false);
  try {
    const response = await request(`/conversations/${encodeURIComponent(conversationId)}/messages`, {
      headers: { Accept: 'application/json' },
    });
    if (response.status === 404) return forgetConversation();
    if (!response.ok) throw await responseError(response);
    const { data } = await response.json();
    newButton.hidden = false;
    for (const message of data) {
      append(message.role === 'user' ? userMessage(message.content) : AgentMessage.stored(message).el);
    }
  } catch (err) {
    append(errorAlert(err.code, `Could not load the conversation: ${err.message}`));
  } finally {
    setComposerEnabled(true);
  }
}

function startNewConversation() {
  forgetConversation();
  for (const el of [...log.children]) if (!el.classList.contains('opening')) el.remove();
  input.focus();
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const query = input.value.trim();
  if (!query || sendButton.disabled) return;
  input.value = '';
  send(query);
});

// Enter sends, Shift+Enter starts a new line (but not while an IME is composing).
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});

for (const button of suggestions) {
  button.addEventListener('click', () => {
    input.value = button.textContent;
    form.requestSubmit();
  });
}

stopButton.addEventListener('click', stop);
newButton.addEventListener('click', startNewConversation);
restore().finally(pageLoaded);
