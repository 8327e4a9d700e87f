@axe @wcag-aa
Feature: Console pages meet WCAG 2.1 A and AA
  Every console page passes axe-core's WCAG 2.1 level A and AA rules in the
  states a user sees it: empty and populated, and with each of its dialogs open.
  A failure names the rule, each element and the rule's help page.

  Scenario: The sign-in page is accessible, also when it shows an error
    Given I am signed out
    When I open the agent roster
    Then I see the sign-in page
    And the page has no accessibility violations
    When I sign in with the admin email and the password "not-the-admin-password"
    Then I see the sign-in error "Invalid email or password"
    And the page has no accessibility violations

  Scenario: The agent roster is accessible, listed and filtered to nothing, with its dialogs open
    Given a basic configured agent has been created via API
    When I open the agent roster
    Then the agent roster lists the agent
    And the page has no accessibility violations
    When I open the agent's duplicate dialog from the roster
    Then the page has no accessibility violations
    When I close the dialog
    And I open the agent's delete dialog from the roster
    Then the page has no accessibility violations
    And the open dialog's "Delete" button is filled with the "danger" colour
    When I close the dialog
    And I open the "Create agent" dialog with the "Create agent" button
    Then the page has no accessibility violations
    When I close the dialog
    And I search the roster for "E2E no agent has this name"
    Then the agent roster says "No agents match"
    And the page has no accessibility violations

  Scenario: The configure page of a new agent is accessible, also with its errors shown
    Given a basic configured agent has been created via API
    When I open the agent's configure page
    Then the page has no accessibility violations
    When I publish the agent
    Then publishing is refused with a reason mentioning "No model selected."
    And the page has no accessibility violations
    When I try to add a variable named "api-key"
    Then the variable dialog says "Use capital letters, digits and underscores, not starting with a digit"
    And the page has no accessibility violations
    When I close the dialog
    And I open the "Duplicate agent" dialog with the "Duplicate" button
    Then the page has no accessibility violations

  @needs-test-hooks
  Scenario: The configure page of a published agent with files and variables is accessible
    Given a basic configured agent has been created via API
    And the agent has the file "notes.txt" uploaded via API
    And the agent has the skill "house-rules" described as "The house rules for visitors." via API
    And the agent has the variable REGION set to "eu-west" via API
    And the agent has the secret variable API_TOKEN set to "tok-a11y-0123456789" via API
    And the agent has been published via the test seeding router
    When I open the agent's configure page
    And I replace the instructions with "Changed after publishing."
    Then the configuration should be saved automatically
    And the page has no accessibility violations
    When I import an env file containing:
      """
      REGION=eu-central
      not a valid line
      """
    Then the import lists the skipped lines:
      | line | reason        |
      | 2    | No '=' after  |
    And the page has no accessibility violations
    When I open version 1 in the version history
    Then the page has no accessibility violations
    When I close the dialog
    And I open the "Edit API_TOKEN" dialog with the "Edit API_TOKEN" button
    Then the page has no accessibility violations

  Scenario: The access point is accessible before the first publish
    Given a basic configured agent has been created via API
    When I open the agent's access point
    Then the access controls are disabled
    And the page has no accessibility violations

  @needs-test-hooks
  Scenario: The access point of a published agent is accessible, with its dialogs open
    Given a basic configured agent has been created via API
    And the agent has been published via the test seeding router
    And an API key has been created via API
    When I open the agent's access point
    Then the page has no accessibility violations
    When I open the embed dialog
    Then the page has no accessibility violations
    When I close the dialog
    And I create an API key
    Then the new API key is shown once with a warning to copy it
    And the page has no accessibility violations

  Scenario: The service API reference is accessible
    Given a basic configured agent has been created via API
    When I open the agent's access point
    And I open the API reference
    Then I see the service API reference
    And the page has no accessibility violations

  Scenario: The knowledge page is accessible, listed and empty, with its dialog open
    Given a dataset has been created via API
    When I open the knowledge page
    Then the knowledge page lists the dataset
    And the page has no accessibility violations
    When I open the "Create dataset" dialog with the "Create dataset" button
    Then the page has no accessibility violations

  Scenario: A dataset's page is accessible empty, with a document and with retrieval results
    Given a dataset has been created via API
    When I open the dataset's page
    Then the page has no accessibility violations
    When I upload the document "handbook.md" containing "The greenhouse vents open at noon."
    Then the document "handbook.md" reaches the status "completed"
    When I test retrieval with the query "greenhouse"
    Then the retrieval results include "The greenhouse vents open at noon."
    And the page has no accessibility violations

  Scenario: The model provider settings are accessible, also with a provider that failed validation
    When I open the model provider settings
    Then the page has no accessibility violations
    When I add a provider named "unreachable" with base URL "http://127.0.0.1:9/v1" and API key "sk-a11y-unreachable"
    Then the provider "unreachable" shows an error
    And the page has no accessibility violations

  Scenario: The tool settings are accessible, also with a credential
    When I open the tool settings
    Then the page has no accessibility violations
    When I add a "Web search" credential named "a11y search" with the secret "ws-a11y-secret-123"
    Then the credential "a11y search" is listed with its secret masked as "…-123"
    And the page has no accessibility violations

  Scenario: The page for a missing address is accessible
    When I open a console address that does not exist
    Then the page has no accessibility violations
