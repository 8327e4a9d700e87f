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

  Scenario: A credential without a base URL fails its check and says why, in its row at once
    Given a web search credential named "no-url" without a base URL has been added via API
    When I open the tool settings
    Then the credential "no-url" check reads "Not checked"
    When I check the credential "no-url"
    Then the credential "no-url" check reads "Invalid: no base URL: web search sends its queries to <base URL>/search; add the credential again with one"
    When I refresh the page
    Then the credential "no-url" check reads "Invalid: no base URL: web search sends its queries to <base URL>/search; add the credential again with one"

  @needs-test-hooks
  Scenario: The catalog shows web search's credential missing, configured, then invalid after a failed check
    Given no web search credential is configured
    When I open the tool settings
    Then the tool catalog shows these credential states:
      | tool             | state                 | colour  |
      | JSON replace     | Ready                 | success |
      | Sandbox shell    | Ready                 | success |
      | Knowledge search | Ready                 | success |
      | Web search       | Needs credential      | warning |
    When I add a "Web search" credential named "search-key" with the secret "tvly-e2e-secret-1234567890"
    Then the tool catalog shows these credential states:
      | tool             | state                 | colour  |
      | JSON replace     | Ready                 | success |
      | Sandbox shell    | Ready                 | success |
      | Knowledge search | Ready                 | success |
      | Web search       | Credential configured | success |
    When I check the credential "search-key"
    Then the tool catalog shows these credential states:
      | tool             | state                 | colour  |
      | JSON replace     | Ready                 | success |
      | Sandbox shell    | Ready                 | success |
      | Knowledge search | Ready                 | success |
      | Web search       | Credential invalid    | danger  |

  Scenario: A credential cannot be checked twice while its check runs
    Given a web search credential named "no-url" without a base URL has been added via API
    When I open the tool settings
    And the console holds the next credential check
    And I check the credential "no-url"
    Then the held credential check has been sent
    And the credential "no-url" cannot be checked again while its check runs
    When the held credential check is answered
    Then the credential "no-url" check reads "Invalid: no base URL: web search sends its queries to <base URL>/search; add the credential again with one"

  Scenario: The catalog reads and looks exactly as recorded while web search has a credential
    Given a web search credential named "catalog-key" without a base URL has been added via API
    When I open the tool settings
    Then the tool catalog matches the golden "tool-catalog"
