@agent-backend-runtime @web-app-runtime @external-model @stable-model
Feature: Limits on replies in progress
  A web app visitor has at most two replies in progress at once (the console's default, over
  all their tabs): one question more is refused for now, stays in the composer with the
  console's message and is not stored; once one of the replies has ended it goes out. The model
  calls are held open by the replay server, never timed.

  Background:
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API
    And the agent has been published via API

  Scenario: A third reply at once waits in the composer until one of the others has ended
    Given the model provider stalls the next 3 calls
    When I open the agent's web app
    And I send the message "Reply with exactly: E2E-FIRST-OF-TWO"
    And I open the agent's web app in another tab
    And I send the message "Reply with exactly: E2E-SECOND-OF-TWO"
    And 2 model calls are provably stalled
    And I open the agent's web app in another tab
    And I send the message "Reply with exactly: E2E-ONE-TOO-MANY"
    Then the web app says "Too many replies at once: you already have 2 in progress. Wait for one to finish, then send your message again." under the composer
    And the message field holds "Reply with exactly: E2E-ONE-TOO-MANY" again
    And the console has not stored the message "Reply with exactly: E2E-ONE-TOO-MANY"
    When I go back to the first tab
    And I stop the reply
    Then the reply is marked "Stopped"
    When I go back to the third tab
    And I send what the message field holds
    Then the agent is writing its reply to "Reply with exactly: E2E-ONE-TOO-MANY"
    When I stop the reply
    Then the reply is marked "Stopped"
    When I go back to the second tab
    And I stop the reply
    Then the reply is marked "Stopped"
