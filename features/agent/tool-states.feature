Feature: Tools as the user sees them on the configure page
  Each tool says what it needs: a credential (missing, configured, or invalid after a failed check
  under Settings → Tools) or, for knowledge search, an attached dataset. An unavailable tool that
  is off cannot be switched on and says why; one already on can still be switched off. The tool
  search narrows the list and says when nothing matches.

  @core @needs-test-hooks
  Scenario: Without a web search credential, web search cannot be switched on and says why
    Given no web search credential is configured
    And a basic configured agent has been created via API
    When I open the agent's configure page
    Then the tools are exactly:
      | tool             | switch        | state                                                            |
      | JSON replace     | off           | Ready                                                            |
      | Sandbox shell    | off           | Ready                                                            |
      | Knowledge search | off, disabled | Unavailable: attach a knowledge dataset to search.               |
      | Web search       | off, disabled | Unavailable: needs a credential. Add one under Settings → Tools. |

  @core @needs-test-hooks
  Scenario: A credential that failed its check leaves web search unavailable on the configure page
    Given no web search credential is configured
    And a web search credential named "no-url" without a base URL has been added via API
    And a basic configured agent has been created via API
    When I open the agent's configure page
    Then the tools are exactly:
      | tool             | switch        | state                                              |
      | JSON replace     | off           | Ready                                              |
      | Sandbox shell    | off           | Ready                                              |
      | Knowledge search | off, disabled | Unavailable: attach a knowledge dataset to search. |
      | Web search       | off           | Credential configured                              |
    When I open the tool settings
    And I check the credential "no-url"
    Then the credential "no-url" check reads "Invalid: no base URL: web search sends its queries to <base URL>/search; add the credential again with one"
    When I open the agent's configure page
    Then the tools are exactly:
      | tool             | switch        | state                                                                                              |
      | JSON replace     | off           | Ready                                                                                              |
      | Sandbox shell    | off           | Ready                                                                                              |
      | Knowledge search | off, disabled | Unavailable: attach a knowledge dataset to search.                                                 |
      | Web search       | off, disabled | Unavailable: its credential failed its last check. Check it or add another under Settings → Tools. |

  @core
  Scenario: Knowledge search is available once a dataset is attached, and is saved when switched on
    Given a dataset has been created via API
    And a basic configured agent has been created via API
    And the dataset has been attached via API
    When I open the agent's configure page
    And I enable the tool "Knowledge search"
    Then the configuration should be saved automatically
    And the agent's enabled tools are exactly:
      | tool             |
      | Knowledge search |

  @core
  Scenario: A tool switched on while unavailable can be switched off, and then not on again
    Given a basic configured agent has been created via API
    And the agent has the tool "knowledge_search" enabled via API
    And the agent has the tool "json_replace" enabled via API
    When I open the agent's configure page
    Then the tool "Knowledge search" is enabled
    And the tool "Knowledge search" says "Unavailable: attach a knowledge dataset to search."
    When I disable the tool "Knowledge search"
    Then the tool "Knowledge search" cannot be switched on
    And the configuration should be saved automatically
    And the agent's enabled tools are exactly:
      | tool         |
      | JSON replace |
    And the tools switched on are exactly:
      | tool         |
      | JSON replace |
    When I refresh the page
    Then the tool "Knowledge search" cannot be switched on
    And the tools switched on are exactly:
      | tool         |
      | JSON replace |

  @core
  Scenario: The tool search narrows the list, says when nothing matches, and clearing it shows every tool again
    Given a basic configured agent has been created via API
    And the agent has the tool "json_replace" enabled via API
    When I open the agent's configure page
    And I search the tools for "SEARCH"
    Then the tools listed are exactly:
      | tool             |
      | Knowledge search |
      | Web search       |
    When I search the tools for "holo projector"
    Then the tool search says "No tools match “holo projector”."
    When I search the tools for ""
    Then the tools listed are exactly:
      | tool             |
      | JSON replace     |
      | Sandbox shell    |
      | Knowledge search |
      | Web search       |
    And the tool "JSON replace" is enabled
