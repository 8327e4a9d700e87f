@prepared
Feature: Seeded fixture agents render their configuration
  The seed stage provisions agents with known settings; opening them shows
  every seeded setting exactly, which proves the configure page reads the
  whole draft.

  @full-config-agent
  Scenario: The full config agent shows every seeded setting
    Given the full config agent is available
    When I open the fixture agent's configure page
    Then the configure page shows every setting of the fixture agent
    And the page's main content matches the golden "configure-full-config-agent"

  @tool-states-agent
  Scenario: The tool states agent shows enabled and disabled tools
    Given the tool states agent is available
    When I open the fixture agent's configure page
    Then the tools show the fixture agent's enabled and disabled states

  @tool-states-agent @tool-fixture
  Scenario: The tool states agent shows its enabled, disabled and unavailable tools, each saying why
    Given the tool states agent is available
    And the web search tool credential is available
    When I open the fixture agent's configure page
    Then the tools are exactly:
      | tool             | switch | state                                              |
      | JSON replace     | on     | Ready                                              |
      | Sandbox shell    | off    | Ready                                              |
      | Knowledge search | on     | Unavailable: attach a knowledge dataset to search. |
      | Web search       | off    | Credential configured                              |
    When I search the tools for "search"
    Then the tools are exactly:
      | tool             | switch | state                                              |
      | Knowledge search | on     | Unavailable: attach a knowledge dataset to search. |
      | Web search       | off    | Credential configured                              |

  @dual-retrieval-fixture
  Scenario: The dual retrieval agent shows both attached datasets
    Given the dual retrieval agent is available
    When I open the fixture agent's configure page
    Then the knowledge section lists both of the fixture agent's datasets
