// The configure page's content moderation card: keywords (one a line) and, for questions and
// answers, a switch and the preset reply. It checks what the console checks (the same limits and
// words), so a draft the console would refuse is never sent: an invalid edit says what is wrong
// at its field and saves nothing until it is put right; the other fields keep saving.
import { byId, setFieldError } from './dom.js';

const MAX_KEYWORDS = 100;
const MAX_KEYWORD_CHARS = 100;

const keywordsInput = byId('moderation-keywords');
const directions = {
  inputs: { toggle: byId('moderation-inputs'), reply: byId('moderation-inputs-reply'), what: 'questions' },
  outputs: { toggle: byId('moderation-outputs'), reply: byId('moderation-outputs-reply'), what: 'answers' },
};

const keywordKey = (keyword) => keyword.trim().replace(/\s+/g, ' ').toLowerCase();

function readKeywords() {
  return keywordsInput.value.split('\n').map((line) => line.trim()).filter(Boolean);
}

// Why the keywords cannot be saved, or '' when they can.
function keywordsError(keywords) {
  if (keywords.length > MAX_KEYWORDS) return `At most ${MAX_KEYWORDS} keywords: this list has ${keywords.length}.`;
  const seen = new Map();
  for (const keyword of keywords) {
    if (keyword.length > MAX_KEYWORD_CHARS) {
      return `A keyword is longer than ${MAX_KEYWORD_CHARS} characters: "${keyword.slice(0, 20)}…".`;
    }
    const key = keywordKey(keyword);
    if (seen.has(key)) {
      const first = seen.get(key);
      return first === keyword ? `The keyword "${keyword}" is listed twice.`
        : `"${first}" and "${keyword}" are the same keyword: keywords ignore case.`;
    }
    seen.set(key, keyword);
  }
  return '';
}

// `config()` is the draft being edited; `edited()` saves it.
export function bindModeration({ config, edited }) {
  function changed() {
    const keywords = readKeywords();
    const problem = keywordsError(keywords);
    setFieldError(keywordsInput, problem);
    let valid = !problem;
    const moderation = { keywords };
    for (const [name, { toggle, reply, what }] of Object.entries(directions)) {
      const missing = toggle.checked && !reply.value.trim();
      setFieldError(reply, missing ? `Moderating ${what} needs a preset reply.` : '');
      valid = valid && !missing;
      moderation[name] = { enabled: toggle.checked, preset_reply: reply.value };
    }
    if (!valid) return;
    config().moderation = moderation;
    edited();
  }
  keywordsInput.addEventListener('input', changed);
  for (const { toggle, reply } of Object.values(directions)) {
    toggle.addEventListener('change', changed);
    reply.addEventListener('input', changed);
  }
}

// Shows the draft's moderation (at load, after a restore and after "Load latest").
export function showModeration(moderation) {
  keywordsInput.value = moderation.keywords.join('\n');
  setFieldError(keywordsInput, '');
  for (const [name, { toggle, reply }] of Object.entries(directions)) {
    toggle.checked = moderation[name].enabled;
    reply.value = moderation[name].preset_reply;
    setFieldError(reply, '');
  }
}
