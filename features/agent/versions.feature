@stable-model
Feature: Version history
  Every publish is a version with its number, time and an optional note. A
  version opens read-only; restoring it copies it into the draft as one saved
  change, and what is published stays as it was until the next publish.

  Background:
    Given the stable chat model is available
    And a runnable agent has been created via API

  @prepared
  Scenario: The version list shows each publish with its note
    When I open the agent's configure page
    And I publish the agent with the note "First release"
    Then the publish bar shows "Published v1 · up to date"
    When I replace the instructions with "Answer in one sentence."
    Then the configuration should be saved automatically
    When I publish the agent with the note "Shorter answers"
    Then the publish bar shows "Published v2 · up to date"
    And the version history lists:
      | version | note            |
      | v2      | Shorter answers |
      | v1      | First release   |

  @prepared
  Scenario: A published version opens read-only
    Given the agent has the tool "sandbox_shell" enabled via API
    And the agent has the tool "json_replace" disabled via API
    And the agent has been published via API
    And another tab saves the instructions "Draft instructions after the release."
    When I open the agent's configure page
    Then the version history shows version 1 with no note and its time, both as secondary text
    When I open version 1 in the version history
    Then version 1 says when it was published, with no note
    And version 1 shows the instructions "You are the E2E runnable agent. Answer briefly and use tools when asked." read-only
    And version 1 shows read-only:
      | detail              | value                                                    |
      | Model               | the stable model                                         |
      | Temperature         | 0.7                                                      |
      | Max tokens          | 1024                                                     |
      | Opening statement   | Hello from the E2E runnable agent.                       |
      | Suggested questions | What can you do? · Reply with exactly: E2E-SUGGESTED-OK |
      | Tools               | sandbox_shell                                            |
      | Knowledge datasets  | 0                                                        |

  @prepared
  Scenario: Restoring a version brings back its instructions as unpublished changes
    Given the agent has been published via API with the note "First release"
    And another tab saves the instructions "Second release instructions."
    And another tab saves the opening statement "Hello from the second release."
    And the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API with the note "Second release"
    When I open the agent's configure page
    Then the preview opens with "Hello from the second release."
    When I open version 1 in the version history
    And I restore version 1 to the draft
    Then the instructions field shows "You are the E2E runnable agent. Answer briefly and use tools when asked."
    And the opening statement field shows "Hello from the E2E runnable agent."
    And no tool is switched on
    And the preview opens with "Hello from the E2E runnable agent."
    And the publish bar shows "Unpublished changes"
    And the publish bar shows "Saved"
    When I refresh the page
    Then the instructions field shows "You are the E2E runnable agent. Answer briefly and use tools when asked."
    And the opening statement field shows "Hello from the E2E runnable agent."
    And no tool is switched on
    And the agent's draft is exactly:
      | field               | value                                                                     |
      | instructions        | You are the E2E runnable agent. Answer briefly and use tools when asked. |
      | model               | the stable model                                                          |
      | temperature         | 0.7                                                                       |
      | max tokens          | 1024                                                                      |
      | opening statement   | Hello from the E2E runnable agent.                                        |
      | suggested questions | What can you do? / Reply with exactly: E2E-SUGGESTED-OK                   |
      | enabled tools       |                                                                           |
      | datasets            |                                                                           |
      | top k               | 3                                                                         |
      | score threshold     |                                                                           |
    And the agent's published version is still 2 with the instructions "Second release instructions."

  @prepared
  Scenario: Restoring a version leaves out a dataset deleted since it was published
    Given a dataset has been created via API
    And the dataset has been attached via API
    And the agent has been published via API with the note "With a dataset"
    And the dataset has been deleted via API
    When I open the agent's configure page
    And I open version 1 in the version history
    And I restore version 1 to the draft
    Then no dataset is attached
    And the publish bar shows "Saved"
    When I refresh the page
    Then no dataset is attached
    And the agent's draft is exactly:
      | field               | value                                                                     |
      | instructions        | You are the E2E runnable agent. Answer briefly and use tools when asked. |
      | model               | the stable model                                                          |
      | temperature         | 0.7                                                                       |
      | max tokens          | 1024                                                                      |
      | opening statement   | Hello from the E2E runnable agent.                                        |
      | suggested questions | What can you do? / Reply with exactly: E2E-SUGGESTED-OK                   |
      | enabled tools       |                                                                           |
      | datasets            |                                                                           |
      | top k               | 3                                                                         |
      | score threshold     |                                                                           |

  @agent-backend-runtime @web-app-runtime @external-model
  Scenario: The web app answers from the latest publish after an older version is restored
    Given the agent runtime backend is available
    And the agent has been published via API with the note "Without tools"
    And the agent has the tool "sandbox_shell" enabled via API
    And the agent has been published via API with the note "With the sandbox"
    And version 1 has been restored to the draft via API
    When I open the agent's web app
    And I send the message "Please run the command `echo E2E-LATEST-PUBLISH`"
    Then the tool "sandbox_shell" shows the result "E2E-LATEST-PUBLISH"
    And the agent replies "Tool sandbox_shell returned: E2E-LATEST-PUBLISH"
