"""Content moderation at chat time: does a text hold one of the agent's keywords (ignoring case,
as whole words and phrases), and the guard that checks an answer while it streams, holding back
the word still being written so a flagged keyword is never handed out, even in part of a phrase's
last word."""

from __future__ import annotations

import re

from agent_builder.console.schemas.moderation import ModerationSettings

# A word character as the matcher sees it; a keyword matches only between non-word characters.
_WORD = re.compile(r"\w")


def keyword_pattern(keywords: list[str]) -> re.Pattern[str] | None:
    """One pattern for all keywords (None for none): each a whole word or phrase, any case, any
    run of whitespace between its words."""
    alternatives = [
        r"\s+".join(re.escape(word) for word in keyword.split()) for keyword in keywords if keyword.strip()
    ]
    if not alternatives:
        return None
    # Longest first, so a phrase wins over a keyword it starts with.
    alternatives.sort(key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


def flags_question(settings: ModerationSettings, question: str) -> bool:
    """Whether the question must not reach the model (inputs moderated and a keyword in it)."""
    if not settings.inputs.enabled:
        return False
    pattern = keyword_pattern(settings.keywords)
    return pattern is not None and pattern.search(question) is not None


class AnswerGuard:
    """Checks an answer as it streams. `feed` takes the next piece and returns what may be shown
    now: everything up to the last non-word character, once no keyword is in it (the word still
    being written waits, since "bad" may yet become "badge"). Once a keyword is found, `flagged` is
    true and nothing more is handed out."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self._pattern = pattern
        self._raw = ""
        self._shown = 0
        self.flagged = False

    def feed(self, piece: str) -> str:
        self._raw += piece
        if self.flagged:
            return ""
        end = len(self._raw)
        while end > 0 and _WORD.match(self._raw[end - 1]):
            end -= 1  # the word still being written
        return self._release(end)

    def finish(self, text: str | None = None) -> str:
        """The answer ended (`text`: the whole answer, when the runtime says it): check the rest,
        which the end of the answer now closes, and return what remains to be shown."""
        if text is not None and text.startswith(self._raw[: self._shown]):
            self._raw = text
        if self.flagged:
            return ""
        return self._release(len(self._raw))

    def _release(self, end: int) -> str:
        if self._pattern.search(self._raw[:end]) is not None:
            self.flagged = True
            return ""
        shown, self._shown = self._raw[self._shown : end], end
        return shown


def answer_guard(settings: ModerationSettings) -> AnswerGuard | None:
    """A guard for the answers of an agent whose outputs are moderated, else None."""
    if not settings.outputs.enabled:
        return None
    pattern = keyword_pattern(settings.keywords)
    return None if pattern is None else AnswerGuard(pattern)
