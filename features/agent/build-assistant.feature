@external-model @decision-model
Feature: The build assistant
  Described in a few sentences, an agent is drafted by the decision model: the
  proposal is shown against the current draft, section by section, and changes
  nothing until it is applied as one saved revision. It stays pending until it
  is applied or discarded. Model calls replay from cassettes.

  Background:
    Given the decision chat model is available
    And a basic configured agent has been created via API

  Scenario: The build assistant's proposal is shown without changing the draft
    When I open the agent's configure page
    And I ask the build assistant for this agent:
      """
      A support desk agent for the Meridian station that answers in two sentences. Greet users with "Hello from the support desk." Offer "What is the refund window?" and "How do I escalate a ticket?".
      """
    Then the build assistant proposes:
      | section             | proposed                                                                     | state   |
      | Instructions        | A support desk agent for the Meridian station that answers in two sentences. | Changes |
      | Opening statement   | Hello from the support desk.                                                 | Changes |
      | Suggested questions | What is the refund window? / How do I escalate a ticket?                     | Changes |
    And the instructions field shows the agent's instructions
    And the agent's draft is unchanged

  Scenario: Discarding a proposal keeps the draft
    When I open the agent's configure page
    And I ask the build assistant for this agent:
      """
      A concierge for Ring 7 that answers only questions about the greenhouse.
      """
    Then the build assistant proposes:
      | section      | proposed                                                                 |
      | Instructions | A concierge for Ring 7 that answers only questions about the greenhouse. |
    When I discard the proposal
    Then the build assistant shows no proposal
    And the instructions field shows the agent's instructions
    And the agent's draft is unchanged

  @knowledge-fixture
  Scenario: Applying a proposal updates every section it names in one saved revision
    Given the ready knowledge dataset is available
    And the agent has the file "notes.txt" uploaded via API
    And the agent has the tool "json_replace" enabled via API
    When I open the agent's configure page
    And I ask the build assistant for this agent:
      """
      A greenhouse helper that answers from the station handbook. Greet visitors with "Welcome to the greenhouse." Offer "How is the Zephyr lettuce watered?". Use `knowledge_search` and `sandbox_shell`. Attach the knowledge "e2e-seed-ready-knowledge".
      """
    Then the build assistant proposes:
      | section   | proposed                         | state   |
      | Tools     | Knowledge search / Sandbox shell | Changes |
      | Knowledge | e2e-seed-ready-knowledge         | Changes |
    When I apply the proposal
    Then the configuration should be saved automatically
    And the instructions field shows "A greenhouse helper that answers from the station handbook."
    And the opening statement field shows "Welcome to the greenhouse."
    And the suggested questions are "How is the Zephyr lettuce watered?"
    And the tools switched on are exactly:
      | tool             |
      | Knowledge search |
      | Sandbox shell    |
    And only the ready knowledge dataset is attached
    And the agent files list "notes.txt"
    And the preview opens with "Welcome to the greenhouse."
    And the preview suggests "How is the Zephyr lettuce watered?"
    When I refresh the page
    Then the tools switched on are exactly:
      | tool             |
      | Knowledge search |
      | Sandbox shell    |
    And the agent's draft is exactly:
      | field               | value                                                        |
      | instructions        | A greenhouse helper that answers from the station handbook. |
      | model               |                                                              |
      | temperature         | 0.7                                                          |
      | max tokens          | 1024                                                         |
      | opening statement   | Welcome to the greenhouse.                                   |
      | suggested questions | How is the Zephyr lettuce watered?                           |
      | enabled tools       | Knowledge search / Sandbox shell                             |
      | datasets            | the ready knowledge dataset                                  |
      | top k               | 3                                                            |
      | score threshold     |                                                              |
    And the proposal was saved as one new revision that keeps the model and parameters

  Scenario: An edit made right before Apply is kept beside the proposal
    When I open the agent's configure page
    And I ask the build assistant for this agent:
      """
      A lighthouse keeper's helper that answers in one sentence.
      """
    Then the build assistant proposes:
      | section      | proposed                                                   |
      | Instructions | A lighthouse keeper's helper that answers in one sentence. |
    When the autosave delay does not run out by itself
    And I replace the opening statement with "Edited right before applying."
    And I apply the proposal
    Then the instructions field shows "A lighthouse keeper's helper that answers in one sentence."
    And the opening statement field shows "Edited right before applying."
    And the agent's draft is exactly:
      | field               | value                                                      |
      | instructions        | A lighthouse keeper's helper that answers in one sentence. |
      | model               |                                                            |
      | temperature         | 0.7                                                        |
      | max tokens          | 1024                                                       |
      | opening statement   | Edited right before applying.                              |
      | suggested questions |                                                            |
      | enabled tools       |                                                            |
      | datasets            |                                                            |
      | top k               | 3                                                          |
      | score threshold     |                                                            |

  Scenario: A pending proposal survives leaving the page
    When I open the agent's configure page
    And I ask the build assistant for this agent:
      """
      A night shift agent that answers in one sentence. Offer "Who is on call tonight?".
      """
    Then the build assistant proposes:
      | section             | proposed                                    |
      | Instructions        | A night shift agent that answers in one sentence. |
      | Suggested questions | Who is on call tonight?                     |
    When I open the agent roster
    And I open the agent's configure page
    Then the build assistant proposes:
      | section             | proposed                                          |
      | Instructions        | A night shift agent that answers in one sentence. |
      | Suggested questions | Who is on call tonight?                           |
    And the agent's draft is unchanged

  Scenario: A proposal naming a missing tool marks it unavailable and applies the rest
    Given the agent greets with "Hello from the operators' desk." and suggests "Which command failed?" and "Where is the log?" via API
    When I open the agent's configure page
    And I ask the build assistant for this agent:
      """
      A shell helper that runs commands for the operators. Use `sandbox_shell` and `holo_projector`.
      """
    Then the build assistant marks the tool "holo_projector" unavailable
    When I apply the proposal
    Then the configuration should be saved automatically
    And the tools switched on are exactly:
      | tool          |
      | Sandbox shell |
    And the instructions field shows "A shell helper that runs commands for the operators."
    And the opening statement field shows "Hello from the operators' desk."
    And the suggested questions are "Which command failed?" and "Where is the log?"
    And the agent's enabled tools are exactly:
      | tool          |
      | Sandbox shell |
    And the proposal was saved as one new revision that keeps the model and parameters

  Scenario: A proposal that adds a skill adds it once, however often it is applied
    Given the agent has the skill "greeting" described as "Greets visitors." via API
    When I open the agent's configure page
    And I ask the build assistant for this agent:
      """
      A release desk agent that answers in one sentence. Add the skill "release-notes" that turns a changelog into release notes.
      """
    Then the build assistant proposes:
      | section | proposed                       | state   |
      | Skills  | greeting / release-notes (new) | Changes |
    When I apply the proposal
    Then the skills card lists exactly:
      | name          | description                           | files  |
      | greeting      | Greets visitors.                      | 1 file |
      | release-notes | Turns a changelog into release notes. | 1 file |
    When I ask the build assistant for this agent:
      """
      A release desk agent that answers in one sentence. Add the skill "release-notes" that turns a changelog into release notes.
      """
    Then the build assistant proposes:
      | section | proposed                 | state     |
      | Skills  | greeting / release-notes | No change |
    When I apply the proposal
    Then the skills card lists exactly:
      | name          | description                           | files  |
      | greeting      | Greets visitors.                      | 1 file |
      | release-notes | Turns a changelog into release notes. | 1 file |
    When I refresh the page
    Then the agent's draft skills are exactly:
      | name          | description                           | files    |
      | greeting      | Greets visitors.                      | SKILL.md |
      | release-notes | Turns a changelog into release notes. | SKILL.md |

  Scenario: A proposal that rewrites a skill the agent has replaces it in its place
    Given the agent has the skill "release-notes" described as "Writes notes." via API
    And the agent has the skill "greeting" described as "Greets visitors." via API
    When I open the agent's configure page
    And I ask the build assistant for this agent:
      """
      A release desk agent that answers in one sentence. Add the skill "release-notes" that turns a changelog into release notes.
      """
    Then the build assistant proposes:
      | section | proposed                            | state   |
      | Skills  | release-notes (replaced) / greeting | Changes |
    When I apply the proposal
    Then the skills card lists exactly:
      | name          | description                           | files  |
      | release-notes | Turns a changelog into release notes. | 1 file |
      | greeting      | Greets visitors.                      | 1 file |
    And the agent's draft skills are exactly:
      | name          | description                           | files    |
      | release-notes | Turns a changelog into release notes. | SKILL.md |
      | greeting      | Greets visitors.                      | SKILL.md |

  Scenario: A failing decision model call is shown and leaves the draft alone
    Given the model provider fails the next call with status 500
    When I open the agent's configure page
    And I ask the build assistant for this agent:
      """
      A weather agent that answers in one sentence.
      """
    Then the build assistant explains "HTTP 500"
    And the build assistant shows no proposal
    And the agent's draft is unchanged
