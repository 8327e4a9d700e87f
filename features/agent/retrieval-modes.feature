@core
Feature: Knowledge retrieval modes
  An agent's knowledge is searched when the agent decides (the model calls the
  Knowledge search tool) or before every message (the user's question is
  searched first, with the agent's top K and score threshold). The mode and its
  limits are draft settings: autosaved, refused visibly when out of range, and
  the preview says which retrieval its replies use.

  Background:
    Given a basic configured agent has been created via API

  Scenario: Retrieving before every message is saved with its top K and score threshold
    Given the agent's knowledge has been set via API:
      | field    | value   |
      | datasets | manuals |
    When I open the agent's configure page
    Then the retrieval mode shows "when the agent decides"
    And the preview's knowledge line says "Knowledge: not used (turn on Knowledge search, or retrieve before every message)"
    When I choose the retrieval mode "before every message"
    And I set the "Top K" field to "1"
    And I set the "Score threshold" field to "0.5"
    Then the configuration should be saved automatically
    And the preview's knowledge line says "Knowledge: retrieved before every message (top K 1, score threshold 0.5)"
    And the agent's knowledge is exactly:
      | field           | value                |
      | datasets        | manuals              |
      | retrieval mode  | before every message |
      | top k           | 1                    |
      | score threshold | 0.5                  |
    And the retrieval mode shows "before every message"
    And the "Top K" field shows "1"
    And the "Score threshold" field shows "0.5"
    When I refresh the page
    Then the retrieval mode shows "before every message"
    And the "Top K" field shows "1"
    And the "Score threshold" field shows "0.5"
    And the preview's knowledge line says "Knowledge: retrieved before every message (top K 1, score threshold 0.5)"

  Scenario Outline: <setting> <value> is out of range for retrieval, refused visibly and not saved
    When I open the agent's configure page
    And I set the "<setting>" field to "<value>"
    Then the "<setting>" field shows the error "<error>"
    When I choose the retrieval mode "before every message"
    Then the configuration should be saved automatically
    And the agent's knowledge is exactly:
      | field           | value                |
      | datasets        |                      |
      | retrieval mode  | before every message |
      | top k           | 3                    |
      | score threshold |                      |

    Examples:
      | setting         | value | error                                   |
      | Top K           | 0     | Top K must be between 1 and 10          |
      | Top K           | 11    | Top K must be between 1 and 10          |
      | Top K           | 2.5   | Top K must be between 1 and 10          |
      | Score threshold | 1.01  | Score threshold must be between 0 and 1 |
      | Score threshold | -0.1  | Score threshold must be between 0 and 1 |

  Scenario Outline: Top K <top k> and score threshold <threshold> are within range and saved
    Given the agent's knowledge has been set via API:
      | field          | value                |
      | retrieval mode | before every message |
    When I open the agent's configure page
    And I set the "Top K" field to "<top k>"
    And I set the "Score threshold" field to "<threshold>"
    Then the configuration should be saved automatically
    And the agent's knowledge is exactly:
      | field           | value                |
      | datasets        |                      |
      | retrieval mode  | before every message |
      | top k           | <top k>              |
      | score threshold | <threshold>          |

    Examples:
      | top k | threshold |
      | 1     | 0         |
      | 10    | 1         |

  Scenario: Clearing the score threshold keeps every match, and the preview says so at once
    Given the agent's knowledge has been set via API:
      | field           | value                |
      | datasets        | manuals              |
      | retrieval mode  | before every message |
      | top k           | 4                    |
      | score threshold | 0.25                 |
    When I open the agent's configure page
    Then the preview's knowledge line says "Knowledge: retrieved before every message (top K 4, score threshold 0.25)"
    When I set the "Score threshold" field to ""
    Then the configuration should be saved automatically
    And the preview's knowledge line says "Knowledge: retrieved before every message (top K 4, no score threshold)"
    And the agent's knowledge is exactly:
      | field           | value                |
      | datasets        | manuals              |
      | retrieval mode  | before every message |
      | top k           | 4                    |
      | score threshold |                      |

  Scenario: Switching back to the agent deciding keeps top K and threshold for later
    Given the agent's knowledge has been set via API:
      | field           | value                |
      | datasets        | manuals              |
      | retrieval mode  | before every message |
      | top k           | 2                    |
      | score threshold | 0.4                  |
    And the agent has the tool "knowledge_search" enabled via API
    When I open the agent's configure page
    And I choose the retrieval mode "when the agent decides"
    Then the configuration should be saved automatically
    And the preview's knowledge line says "Knowledge: searched when the agent decides"
    And the agent's knowledge is exactly:
      | field           | value                  |
      | datasets        | manuals                |
      | retrieval mode  | when the agent decides |
      | top k           | 2                      |
      | score threshold | 0.4                    |

  Scenario: A top K typed while the mode's save is still in flight is saved too
    Given the agent's knowledge has been set via API:
      | field    | value   |
      | datasets | manuals |
    And the console holds the next draft save
    When I open the agent's configure page
    And I choose the retrieval mode "before every message"
    Then the held draft save has been sent
    When I set the "Top K" field to "7"
    And the held draft save is released
    Then the configuration should be saved automatically
    And the preview's knowledge line says "Knowledge: retrieved before every message (top K 7, no score threshold)"
    And the agent's knowledge is exactly:
      | field           | value                |
      | datasets        | manuals              |
      | retrieval mode  | before every message |
      | top k           | 7                    |
      | score threshold |                      |

  Scenario: Detaching a dataset removes it from the draft and from what the preview retrieves
    Given the agent's knowledge has been set via API:
      | field          | value                |
      | datasets       | manuals / archive    |
      | retrieval mode | before every message |
    When I open the agent's configure page
    And I remove the attached dataset "archive"
    Then the knowledge section lists exactly the datasets:
      | dataset |
      | manuals |
    And the configuration should be saved automatically
    And the preview's knowledge line says "Knowledge: retrieved before every message (top K 3, no score threshold)"
    When I remove the attached dataset "manuals"
    Then the configuration should be saved automatically
    And the preview shows no knowledge line
    And the agent's knowledge is exactly:
      | field           | value                |
      | datasets        |                      |
      | retrieval mode  | before every message |
      | top k           | 3                    |
      | score threshold |                      |
