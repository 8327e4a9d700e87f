"""Every `E2E_*` variable in one typed, frozen model, validated before anything starts.

Values come from the environment, then from `.env` for variables the environment does not set
(pydantic-settings reads both). An empty value counts as unset. Unknown `E2E_*` variables are an
error (with a suggestion), so a typo never silently does nothing. `python -m support.settings
--markdown` prints the README table from the field metadata, so the docs cannot drift from the code.

- `fields`: value types, validators and the per-field metadata (what a variable accepts);
- `model`: the `Settings` model and the checks across variables;
- `loading`: `load_settings()`, unknown variables and the per-variable error messages;
- `cli`: the README table and `python -m support.settings`;
- `network`: E2E_CA_FILE and E2E_HOST_RESOLVER_RULES applied to this process: one TLS context for
  every HTTP call of the suite (`tls()`), and the mapped host names resolved.

Callers import `Settings`, `SettingsError` and `load_settings` from here.
"""

from support.settings.loading import load_settings
from support.settings.model import Settings, SettingsError

__all__ = ["Settings", "SettingsError", "load_settings"]
