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

  @tool-states-agent
  Scenario: The tool states agent shows enabled and disabled tools
    Given the tool states agent is available
    When I open the fixture agent's configure page
    Then the tools show the fixture agent's enabled and disabled states

  @dual-retrieval-fixture
  Scenario: The dual retrieval agent shows both attached datasets
    Given the dual retrieval agent is available
    When I open the fixture agent's configure page
    Then the knowledge section lists both of the fixture agent's datasets
