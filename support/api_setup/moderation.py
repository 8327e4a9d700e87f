"""The agent's content moderation and its web app's settings, set through the console API as
another client would; and how a scenario's tables read them back."""

from __future__ import annotations

from support.api.models import (
    AgentDetail,
    ChatMessage,
    ModerationDirection,
    ModerationSettings,
    WebAppSettings,
)
from support.api_setup.agents import LIST_SEPARATOR, change_draft, current_agent, remember_agent, saved_agent
from support.world import World


def moderate(world: World, keywords: list[str], *, questions: str = "", answers: str = "") -> AgentDetail:
    """The agent's draft moderating questions (with their preset reply `questions`) and answers
    (`answers`), each only when given, on these keywords."""
    moderation = ModerationSettings(
        keywords=keywords,
        inputs=ModerationDirection(enabled=bool(questions), preset_reply=questions),
        outputs=ModerationDirection(enabled=bool(answers), preset_reply=answers),
    )
    return change_draft(world, moderation=moderation)


def moderation_as_read(agent: AgentDetail) -> dict[str, str]:
    """The draft's moderation as a scenario's table writes it: keywords joined by " / ", each
    switch `on` or `off`, the preset replies as they are."""
    moderation = agent.draft.config.moderation
    return {
        "keywords": LIST_SEPARATOR.join(moderation.keywords),
        "moderate questions": "on" if moderation.inputs.enabled else "off",
        "preset reply to questions": moderation.inputs.preset_reply,
        "moderate answers": "on" if moderation.outputs.enabled else "off",
        "preset reply to answers": moderation.outputs.preset_reply,
    }


# The settings dialog's labels, and the field of WebAppSettings each edits.
WEB_APP_SETTING_FIELDS = {
    "Title": "title",
    "Description": "description",
    "Icon": "icon",
    "Colour": "color",
    "Copyright": "copyright",
    "Privacy policy link": "privacy_policy_url",
    "Default language": "default_language",
}
# What the dialog's lists show for each value.
COLOUR_NAMES = {
    "blue": "Blue",
    "green": "Green",
    "purple": "Purple",
    "orange": "Orange",
    "red": "Red",
    "teal": "Teal",
    "gray": "Gray",
}
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "ja": "日本語"}


def web_app_settings_as_read(agent: AgentDetail) -> dict[str, str]:
    """The draft's web app settings by the dialog's labels, the lists by the names it shows."""
    settings = agent.draft.config.web_app.model_dump()
    read = {label: str(settings[field]) for label, field in WEB_APP_SETTING_FIELDS.items()}
    read["Colour"] = COLOUR_NAMES[read["Colour"]]
    read["Default language"] = LANGUAGE_NAMES[read["Default language"]]
    return read


def save_web_app_settings(world: World, shown: dict[str, str]) -> AgentDetail:
    """Save the web app settings given by the dialog's labels and shown values (the rest default)."""
    values = {WEB_APP_SETTING_FIELDS[label]: value for label, value in shown.items()}
    if "color" in values:
        values["color"] = {name: code for code, name in COLOUR_NAMES.items()}[values["color"]]
    if "default_language" in values:
        values["default_language"] = {name: code for code, name in LANGUAGE_NAMES.items()}[
            values["default_language"]
        ]
    world.console.save_web_app_settings(current_agent(world).id, WebAppSettings.model_validate(values))
    return remember_agent(world, saved_agent(world), "agent")


def stored_as_read(messages: list[ChatMessage]) -> list[dict[str, str]]:
    """Stored messages as a scenario's table writes them: role, content and how moderated (`-`
    for not)."""
    return [
        {"role": message.role, "content": message.content, "moderated": message.moderated or "-"}
        for message in messages
    ]


def preview_conversation(world: World, conversation_id: str) -> list[ChatMessage]:
    """The agent's preview conversation as the console stores it."""
    return world.console.preview_messages(current_agent(world).id, conversation_id).data
