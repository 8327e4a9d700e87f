// A conversation with an agent, shared by the public web app (chat.js) and the configure page's
// preview (preview.js): messages, replies streamed from server-sent events (docs/console.md,
// "Event streams"), tool cards with their knowledge sources, Stop, and restoring a stored
// conversation. Each page gives its endpoints and elements; nothing here knows which page it is.
import { h } from './dom.js';

export class ChatError extends Error {
  constructor(code, message, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function responseError(response) {
  const body = await response.json().catch(() => null);
  return new ChatError(body?.code || 'http_error', body?.message || `Request failed (HTTP ${response.status}).`,
    response.status);
}

export function errorAlert(code, message) {
  return h('div', { class: 'alert', role: 'alert', 'data-code': code },
    h('p', {}, message), h('p', { class: 'error-code' }, `Error code: ${code}`));
}

export function userMessage(text) {
  return h('article', { class: 'message user', 'aria-label': 'You' },
    h('p', { class: 'message-role' }, 'You'), h('div', { class: 'message-text' }, text));
}

function formatArguments(args) {
  return typeof args === 'string' ? args : JSON.stringify(args, null, 2);
}

// Where the knowledge passages of a tool result come from: dataset and document, once each.
function sources(citations) {
  const names = [...new Set((citations || []).map((c) => `${c.dataset_name} · ${c.document_name}`))];
  return names.length ? [h('p', { class: 'tool-label' }, 'Sources'),
    h('ul', { class: 'citations', 'aria-label': 'Sources' }, names.map((name) => h('li', {}, name)))] : [];
}

function toolCallGroup({ name, arguments: args, output, is_error: isError, citations }) {
  const done = output !== null && output !== undefined;
  const state = !done ? 'Running…' : isError ? 'Failed' : 'Done';
  return h('div', { class: `tool-call${isError ? ' error' : ''}`, role: 'group', 'aria-label': `Tool ${name}` },
    h('p', { class: 'tool-title' }, 'Tool ', h('code', {}, name), h('span', { class: 'tool-state' }, state)),
    h('p', { class: 'tool-label' }, 'Arguments'),
    h('pre', {}, formatArguments(args)),
    done && h('p', { class: 'tool-label' }, isError ? 'Error' : 'Result'),
    done && h('pre', {}, output),
    done && sources(citations));
}

// Keeps the newest message in view while the reader is at the end of `scroller` (an element that
// scrolls, or null for the page), unless they scrolled up to read something.
function follower(scroller) {
  const box = () => scroller || document.documentElement;
  const view = () => (scroller ? scroller.clientHeight : window.innerHeight);
  const top = () => (scroller ? scroller.scrollTop : window.scrollY);
  return {
    pinned: () => view() + top() >= box().scrollHeight - 120,
    follow(pinned) {
      if (!pinned) return;
      if (scroller) scroller.scrollTop = scroller.scrollHeight;
      else window.scrollTo({ top: document.documentElement.scrollHeight });
    },
  };
}

// What the preview says of a reply that content moderation stood in for.
const MODERATION_NOTES = {
  input: 'Moderated question: answered with the preset reply, without the model.',
  output: 'Moderated answer: replaced by the preset reply.',
};

// An agent reply: built live from stream events, or at once from a stored ChatMessage.
// `moderationNotes`: say when content moderation stood in (the preview does; the web app not).
class AgentMessage {
  constructor(agentName, scroll, moderationNotes = false) {
    this.scroll = scroll;
    this.moderationNotes = moderationNotes;
    this.calls = new Map(); // tool call id -> {name, arguments, output, is_error, citations}
    this.tools = h('div', { class: 'tool-calls' });
    this.text = h('div', { class: 'message-text' });
    this.el = h('article', { class: 'message assistant', 'aria-label': 'Agent', 'aria-busy': 'true' },
      h('p', { class: 'message-role' }, agentName), this.tools, this.text);
  }

  addText(text) {
    const pinned = this.scroll.pinned();
    this.text.append(text);
    this.scroll.follow(pinned);
  }

  // Content moderation flagged the answer: what was shown of it gives way to the preset reply.
  replaceText(text) {
    this.text.textContent = text;
  }

  toolCall(call) {
    this.calls.set(call.id, { ...call, output: null, is_error: false, citations: [] });
    this.renderTools();
  }

  toolResult(result) {
    const call = this.calls.get(result.id);
    if (call) Object.assign(call, { output: result.output, is_error: result.is_error, citations: result.citations });
    this.renderTools();
  }

  renderTools() {
    const pinned = this.scroll.pinned();
    this.tools.replaceChildren(...[...this.calls.values()].map(toolCallGroup));
    this.scroll.follow(pinned);
  }

  // The stored message is the truth: the page shows exactly what a reload would show.
  finish(message) {
    this.calls = new Map(message.tool_calls.map((call) => [call.id, call]));
    this.renderTools();
    this.text.textContent = message.content;
    if (message.status === 'cancelled') this.el.append(h('p', { class: 'message-status' }, 'Stopped'));
    if (message.status === 'failed') this.el.append(errorAlert(message.error.code, message.error.message));
    if (message.moderated && this.moderationNotes) {
      this.el.append(h('p', { class: 'message-status' }, MODERATION_NOTES[message.moderated]));
    }
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

// One conversation: `apiBase` serves POST /messages, POST /messages/{id}/stop and
// GET /conversations/{id}/messages. The conversation id is kept under `storageKey` in
// localStorage, so a reload restores it. `controls()` are disabled while a reply streams;
// `beforeSend()` runs (awaited) before each question goes out; `onConversation(id | null)` hears
// when the conversation starts or is forgotten, `onIdle()` when a reply ended, however it ended.
// `composerAlert` (optional) is where a question refused for now (429: too many replies at once)
// says why; the question then goes back into the composer instead of into the log.
export class ChatSession {
  constructor({ apiBase, agentName, log, form, input, sendButton, stopButton, controls = () => [], storageKey,
    scroller = null, beforeSend = async () => {}, onConversation = () => {}, onIdle = () => {},
    composerAlert = null, moderationNotes = false }) {
    Object.assign(this, { apiBase, agentName, log, form, input, sendButton, stopButton, controls, storageKey });
    Object.assign(this, { beforeSend, onConversation, onIdle, composerAlert, moderationNotes });
    this.scroll = follower(scroller);
    this.conversationId = localStorage.getItem(storageKey);
    this.streaming = null; // while a reply streams: {messageId (once named), stopRequested}
    stopButton.addEventListener('click', () => this.stop());
  }

  async request(path, init) {
    try {
      return await fetch(`${this.apiBase}${path}`, { credentials: 'same-origin', ...init });
    } catch {
      throw new ChatError('network_error', 'Could not reach the server. Check your connection.');
    }
  }

  append(el) {
    const pinned = this.scroll.pinned();
    this.log.append(el);
    this.scroll.follow(pinned);
  }

  setComposerEnabled(enabled) {
    for (const control of [this.input, this.sendButton, ...this.controls()]) control.disabled = !enabled;
  }

  setStreaming(on) {
    // A suggested question pressed counts as the composer: it is disabled too while a reply streams.
    const active = document.activeElement;
    const composerFocused = this.form.contains(active) || this.controls().includes(active);
    this.streaming = on ? { messageId: null, stopRequested: false } : null;
    this.setComposerEnabled(!on);
    this.sendButton.hidden = on;
    this.stopButton.hidden = !on;
    this.stopButton.disabled = false;
    // Disabling the composer drops its focus; keyboard users land on Stop instead.
    if (on && composerFocused) this.stopButton.focus();
  }

  remember(id) {
    this.conversationId = id;
    localStorage.setItem(this.storageKey, id);
    this.onConversation(id);
  }

  forget() {
    this.conversationId = null;
    localStorage.removeItem(this.storageKey);
    this.onConversation(null);
  }

  async send(query) {
    const question = userMessage(query);
    this.append(question);
    this.showComposerAlert(null);
    this.setStreaming(true);
    const reply = new AgentMessage(this.agentName, this.scroll, this.moderationNotes);
    try {
      await this.beforeSend();
      const body = this.conversationId ? { query, conversation_id: this.conversationId } : { query };
      const response = await this.request('/messages', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw await responseError(response);
      this.append(reply.el);
      if (!(await this.follow(response, reply))) {
        throw new ChatError('stream_interrupted', 'The reply was interrupted. Reload the page to see what was saved.');
      }
    } catch (err) {
      const error = err instanceof ChatError ? err : new ChatError('stream_interrupted', 'The reply was interrupted.');
      if (reply.el.isConnected) reply.fail(error);
      else if (error.status === 429 && this.composerAlert) {
        // Not stored, not sent: the question waits in the composer to be sent again.
        question.remove();
        if (!this.input.value.trim()) this.input.value = query;
        this.showComposerAlert(error);
      } else this.append(errorAlert(error.code, error.message));
    } finally {
      this.setStreaming(false);
      this.input.focus();
      this.onIdle();
    }
  }

  // Says why the last question was not sent (null: hides the alert).
  showComposerAlert(error) {
    if (!this.composerAlert) return;
    this.composerAlert.replaceChildren(...(error ? errorAlert(error.code, error.message).childNodes : []));
    if (error) this.composerAlert.dataset.code = error.code;
    else delete this.composerAlert.dataset.code;
    this.composerAlert.hidden = !error;
  }

  // Renders the reply's events; true once its stored message arrived.
  async follow(response, reply) {
    for await (const { event, data } of readEvents(response)) {
      if (event === 'message_start') {
        this.remember(data.conversation_id);
        this.streaming.messageId = data.message_id;
        if (this.streaming.stopRequested) this.stop();
      } else if (event === 'message_delta') reply.addText(data.text);
      else if (event === 'message_replace') reply.replaceText(data.text);
      else if (event === 'tool_call') reply.toolCall(data);
      else if (event === 'tool_result') reply.toolResult(data);
      else if (event === 'message_end') {
        reply.finish(data);
        return true;
      } else if (event === 'error') throw new ChatError(data.code, data.message);
    }
    return false;
  }

  // Stop pressed before the server named the reply takes effect as soon as it does.
  async stop() {
    if (!this.streaming) return;
    this.stopButton.disabled = true;
    if (!this.streaming.messageId) {
      this.streaming.stopRequested = true;
      return;
    }
    try {
      const id = encodeURIComponent(this.streaming.messageId);
      const response = await this.request(`/messages/${id}/stop`, { method: 'POST' });
      if (!response.ok) throw await responseError(response);
      // The stream itself ends with the stopped message.
    } catch (err) {
      this.append(errorAlert(err.code, `Could not stop the reply: ${err.message}`));
      this.stopButton.disabled = false;
    }
  }

  // Shows the stored conversation again (no model call): after a reload, or when coming back.
  async restore() {
    if (!this.conversationId) return;
    this.setComposerEnabled(false);
    try {
      const id = encodeURIComponent(this.conversationId);
      const response = await this.request(`/conversations/${id}/messages`, { headers: { Accept: 'application/json' } });
      if (response.status === 404) return this.forget();
      if (!response.ok) throw await responseError(response);
      const { data } = await response.json();
      this.onConversation(this.conversationId);
      for (const message of data) {
        if (message.role === 'user') this.append(userMessage(message.content));
        else {
          const reply = new AgentMessage(this.agentName, this.scroll, this.moderationNotes);
          reply.finish(message);
          this.append(reply.el);
        }
      }
    } catch (err) {
      this.append(errorAlert(err.code, `Could not load the conversation: ${err.message}`));
    } finally {
      this.setComposerEnabled(true);
    }
  }

  // Forgets the conversation and clears the log (the elements matching `keep` stay).
  startNew(keep = '.opening') {
    this.forget();
    for (const el of [...this.log.children]) if (!el.matches(keep)) el.remove();
    this.input.focus();
  }
}

// Enter sends, Shift+Enter starts a new line (but not while an IME is composing); a suggested
// question is sent as it is.
export function bindComposer(session, suggestions = []) {
  const { form, input, sendButton } = session;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = input.value.trim();
    if (!query || sendButton.disabled) return;
    input.value = '';
    session.send(query);
  });
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
}
