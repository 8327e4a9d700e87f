@core
Feature: Tool settings
  The builtin tool catalog says which tools need a credential; credential
  secrets are write-only and shown masked.

  Scenario: The catalog lists every builtin tool
    When I open the tool settings
    Then the tool catalog lists:
      | tool             |
      | JSON replace     |
      | Sandbox shell    |
      | Knowledge search |
      | Web search       |
    And the tool "Web search" says whether its credential is configured

  Scenario: A tool credential secret is never shown after saving
    When I open the tool settings
    And I add a "Web search" credential named "search-key" with the secret "tvly-e2e-secret-1234567890"
    Then the credential "search-key" is listed with its secret masked as "…7890"
    And the page never shows the secret "tvly-e2e-secret-1234567890"
