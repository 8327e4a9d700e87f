@core
Feature: Model provider settings
  Providers are validated with a real call when added; a provider that cannot
  be reached is kept as invalid with the reason, and bad input saves nothing.

  Scenario: A provider that cannot be reached is shown as invalid with the reason
    When I open the model provider settings
    And I add a provider named "unreachable" with base URL "http://127.0.0.1:9/v1" and API key "sk-e2e-unreachable-0000"
    Then the provider "unreachable" shows the status "invalid" in the "danger" colour
    And the provider "unreachable" shows an error
    And the page never shows the secret "sk-e2e-unreachable-0000"

  Scenario: A provider that answers 401 with the key in its message shows the error without it
    Given a model provider that refuses every key and quotes it back
    When I open the model provider settings
    And I add a provider named "quoting" at that provider with API key "sk-e2e-quoted-key-0000"
    Then the provider "quoting" shows the status "invalid" in the "danger" colour
    And the provider "quoting" shows the error "HTTP 401: the provider refused the API key."
    And the provider "quoting"'s card matches the golden "provider-card-refused"
    And the page never shows the secret "sk-e2e-quoted-key-0000"

  Scenario: A base URL that is not a URL is refused and nothing is saved
    When I open the model provider settings
    And I add a provider named "bad-url" with base URL "not-a-url" and API key "sk-e2e-bad-url-0000"
    Then the provider field "Base URL" shows the error "http(s):// URL"
    And the provider list does not show "bad-url"

  Scenario: A duplicate provider name is refused
    Given a model provider named "duplicate" has been added via API
    When I open the model provider settings
    And I add a provider named "duplicate" with base URL "http://127.0.0.1:9/v1" and API key "sk-e2e-duplicate-0000"
    Then the provider field "Name" shows the error "already exists"

  Scenario: A provider added via API is offered for speech to text, and the console models can be saved
    Given a model provider named "speech" has been added via API
    When I open the model provider settings
    Then the console models offer the provider "speech" for speech to text
    And the console models can be edited and saved
