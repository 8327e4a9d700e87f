@prepared @stable-model
Feature: Publishing a runnable agent
  Publishing snapshots the draft into an immutable version; the publish bar
  tells whether the draft has changed since.

  Background:
    Given the stable chat model is available
    And a runnable agent has been created via API

  Scenario: Publishing a runnable agent makes version 1
    When I open the agent's configure page
    And I publish the agent
    Then the publish bar shows "Published v1 · up to date"
    And the agent's published version is 1

  Scenario: Publishing right after an edit publishes that edit
    When I open the agent's configure page
    And the autosave delay does not run out by itself
    And I replace the instructions with "Published before the autosave delay ran out."
    And I publish the agent
    Then the publish bar shows "Published v1 · up to date"
    And the agent's published instructions are "Published before the autosave delay ran out."

  Scenario: Editing after publishing shows unpublished changes
    Given the agent has been published via API
    When I open the agent's configure page
    Then the publish bar shows "Published v1 · up to date"
    When I replace the instructions with "Changed after publishing."
    Then the configuration should be saved automatically
    And the publish bar shows "Unpublished changes"

  Scenario: Republishing makes version 2 and is up to date again
    Given the agent has been published via API
    When I open the agent's configure page
    And I replace the instructions with "Second version of the instructions."
    Then the configuration should be saved automatically
    When I publish the agent
    Then the publish bar shows "Published v2 · up to date"
    And the agent's published version is 2

  Scenario: The roster shows the published version
    Given the agent has been published via API
    When I open the agent roster
    Then the agent roster shows the agent as "Published v1"

  Scenario: A published version does not change when the draft does
    Given the agent has been published via API
    And another tab saves the instructions "Draft only, not published."
    When I open the agent's configure page
    Then the publish bar shows "Unpublished changes"
    And the agent's published instructions are still the runnable agent's instructions

  Scenario: The first publish links to the web app, the API reference and the embed dialog
    When I open the agent's configure page
    And I publish the agent
    Then the publish bar shows "Published v1 · up to date"
    And the publish bar links to the web app, the API reference and the embed dialog
    When I follow the publish bar's link to embed the web app
    Then the access point's embed dialog is open

  Scenario: The first-publish links show once: not when the page is opened again, nor after a later publish
    When I open the agent's configure page
    And I publish the agent
    Then the publish bar shows "Published v1 · up to date"
    And the publish bar links to the web app, the API reference and the embed dialog
    When I open the agent's configure page
    Then the publish bar shows "Published v1 · up to date"
    And the publish bar shows no first-publish links
    When I replace the instructions with "Second version of the instructions."
    Then the configuration should be saved automatically
    When I publish the agent
    Then the publish bar shows "Published v2 · up to date"
    And the publish bar shows no first-publish links
    And the agent's published version is 2
