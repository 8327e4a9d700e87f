@core
Feature: Autosave
  Edits save themselves; the publish bar always tells the user whether the
  latest edit is saving, saved, or failed, and a failed save can be retried.

  Background:
    Given a basic configured agent has been created via API

  Scenario: An edit shows Saving… and then Saved
    When I open the agent's configure page
    And I replace the instructions with "Autosave me."
    Then the publish bar shows "Saving…"
    And the configuration should be saved automatically
    And the agent's draft instructions are "Autosave me."

  Scenario: While a save is in flight the page says Saving…, and an edit made meanwhile is saved after it
    When I open the agent's configure page
    And the console holds the next draft save
    And I replace the instructions with "Typed first."
    Then the held draft save has been sent
    And the publish bar shows "Saving…"
    And the publish bar does not show "Saved"
    When I replace the instructions with "Typed while the first save was in flight."
    And the autosave delay passes
    And the held draft save is released
    Then the configuration should be saved automatically
    And the agent's draft instructions are "Typed while the first save was in flight."

  Scenario: A failed save says so and Retry saves the edit
    Given the console will refuse the next draft save
    When I open the agent's configure page
    And I replace the instructions with "Saved on the second try."
    Then the publish bar shows "Save failed"
    When I retry the save
    Then the configuration should be saved automatically
    And the agent's draft instructions are "Saved on the second try."

  Scenario: At most five suggested questions can be added
    When I open the agent's configure page
    And I add the suggested questions "One?", "Two?", "Three?", "Four?" and "Five?"
    Then the configuration should be saved automatically
    And I cannot add another suggested question
    And the agent's draft suggests "One?", "Two?", "Three?", "Four?" and "Five?"
