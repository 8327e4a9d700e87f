@axe @wcag-aa @needs-test-hooks
Feature: The web app meets WCAG 2.1 A and AA
  The public web app passes axe-core's WCAG 2.1 level A and AA rules when a
  visitor first opens it, with a conversation, and when it is unavailable. Its
  agent is published through the test seeding router: this lane has no model.

  Background:
    Given a basic configured agent has been created via API
    And the agent greets with "Hello, ask me anything." and suggests "What can you do?" and "Who are you?" via API
    And the agent has been published via the test seeding router

  Scenario: The web app is accessible on first visit and with a conversation
    Given a web app conversation with these backdated exchanges has been seeded out of order:
      | question            |
      | What is a11y?       |
      | Who checks it?      |
    When I open the agent's web app
    Then the web app shows the agent's name, opening statement and suggested questions
    And the page has no accessibility violations
    When I open the agent's web app on the seeded conversation
    Then the web app shows the questions oldest first:
      | question            |
      | What is a11y?       |
      | Who checks it?      |
    And the page has no accessibility violations

  Scenario: The web app is accessible when it is unavailable
    Given the agent's web app has been disabled via API
    When I open the agent's web app
    Then the web app says it is unavailable
    And the page has no accessibility violations
