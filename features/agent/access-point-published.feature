@prepared @stable-model
Feature: Access point of a published agent
  Once published, an agent is reachable through its web app and its service
  API; each surface can be turned off and on, API keys are shown once and open
  only their own agent, and deleting the agent closes every surface.

  Background:
    Given the stable chat model is available
    And a runnable agent has been created via API
    And the agent has been published via API

  Scenario: The web app URL opens the agent's chat page
    When I open the agent's access point
    And I open the web app from the access point
    Then the web app shows the agent's name, opening statement and suggested questions

  Scenario: Copying the web app URL confirms it
    When I open the agent's access point
    And I copy the web app URL
    Then the access point confirms "Copied"
    And the clipboard holds the web app URL

  Scenario: Copying the service API base URL confirms it
    When I open the agent's access point
    And I copy the service API base URL
    Then the service API card confirms "Copied"
    And the clipboard holds the service API base URL

  Scenario: The embed dialog offers a snippet with the web app URL
    When I open the agent's access point
    And I open the embed dialog
    Then the embed code is an iframe of the web app URL

  Scenario: A disabled web app is unavailable
    When I open the agent's access point
    And I turn off the web app
    Then the access point says "Web app is disabled"
    And opening the web app shows that it is unavailable

  Scenario: A restored web app is available again
    Given the agent's web app has been disabled via API
    When I open the agent's access point
    And I turn on the web app
    Then the access point says "Web app is enabled"
    And opening the web app shows the agent's chat page

  Scenario: The web app switch changes only once the console confirmed it
    When I open the agent's access point
    And the console holds the next access change
    And I turn off the web app
    Then the held access change has been sent
    And the web app switch is off and waiting for the console
    And the access point says "Web app is enabled"
    When the held access change is released
    Then the access point says "Web app is disabled"
    And opening the web app shows that it is unavailable

  Scenario: A switch change the console refuses is undone and explained
    When I open the agent's access point
    And the console will refuse the next access change
    And I try to turn off the web app
    Then the access point shows the error "Could not change access"
    And the web app switch is on
    And the access point says "Web app is enabled"

  Scenario: A disabled web app stays disabled after a republish
    When I open the agent's access point
    And I turn off the web app
    Then the access point says "Web app is disabled"
    When I open the agent's configure page
    And I replace the instructions with "Republished while the web app is off."
    Then the configuration should be saved automatically
    When I publish the agent
    Then the publish bar shows "Published v2 · up to date"
    And opening the web app shows that it is unavailable

  Scenario: A new API key is shown exactly once
    When I open the agent's access point
    And I create an API key
    Then the new API key is shown once with a warning to copy it
    When I close the API key dialog
    Then the API key list shows the key only masked
    When I refresh the page
    Then the API key list shows the key only masked

  Scenario: A second API key can be created right after the first, and each is shown only once
    When I open the agent's access point
    And I create an API key
    And I close the API key dialog
    Then the API key list shows the key only masked
    When I create an API key
    Then the new API key is shown once with a warning to copy it
    When I close the API key dialog
    Then the API key list shows 2 keys, none of them in full

  Scenario: The service API answers with a new API key
    When I open the agent's access point
    And I create an API key
    And I close the API key dialog
    Then the service API info with that key names the agent

  Scenario: A revoked API key is rejected by the service API, and the agent's other keys still work
    Given an API key has been created via API
    And another API key has been created via API
    When I open the agent's access point
    And I revoke the API key
    Then the API key list shows only the other key
    And the service API rejects that key with status 401
    And the service API info with the other key names the agent

  Scenario: Another agent's API key is not listed on this agent's access point
    Given an API key has been created via API
    And another runnable agent has been created and published via API
    When I open the agent's access point
    Then the API key list does not show the key

  Scenario: A deleted agent is gone from every surface
    Given an API key has been created via API
    When I open the agent roster
    And I delete the agent from the roster
    Then the agent roster does not list the agent
    And the agent no longer exists in the console
    And opening the web app shows that it does not exist
    And the service API rejects that key with status 401

  Scenario: A disabled service API refuses requests until restored
    Given an API key has been created via API
    When I open the agent's access point
    And I turn off the service API
    Then the access point says "Service API is disabled"
    And the service API rejects that key with status 403
    When I turn on the service API
    Then the access point says "Service API is enabled"
    And the service API info with that key names the agent

  Scenario: The service API parameters come from the published version
    Given an API key has been created via API
    And another tab saves the opening statement "A draft greeting, not published yet."
    When I open the agent's access point
    Then the access point shows the service API base URL
    And the service API parameters with that key match the agent's opening statement and suggested questions

  Scenario: The API reference opens from the access point
    When I open the agent's access point
    And I open the API reference
    Then I see the service API reference
