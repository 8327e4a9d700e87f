@keyboard
Feature: Publishing and chatting with the keyboard alone
  A keyboard user publishes the agent and chats in the web app and the preview without a mouse.
  While a reply is in progress the composer and the suggested questions are disabled and the
  focus waits on Stop; once the reply has ended, however it ended, the focus is back in the
  Message field. These need seeded models and the runtime, so they run in the post-merge lane.

  @prepared @stable-model
  Scenario: The agent is published with the keyboard alone and the focus stays on Publish
    Given the stable chat model is available
    And a runnable agent has been created via API
    When I open the agent's configure page
    And I press Tab until the button "Publish" is focused
    And I press Enter
    Then the publish bar shows "Published v1 · up to date"
    And the button "Publish" is focused
    And the focus is visible

  @agent-backend-runtime @web-app-runtime @external-model @stable-model
  Scenario: The web app is used with the keyboard alone and gives the focus back to the Message field
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API
    And the agent greets with "Hello, keyboard user." and suggests "Who are you?" and "What can you do?" via API
    And the agent has been published via API
    When I open the agent's web app
    And I press Tab until the textbox "Message" is focused
    Then the focus is visible
    When I type "Reply with exactly: E2E-KEYBOARD-WEB" into the focused field
    And I press Enter
    Then the agent replies "E2E-KEYBOARD-WEB"
    And the textbox "Message" is focused
    And the web app's suggested questions are enabled
    Given the model provider stalls the next call
    When I press Shift+Tab until the button "What can you do?" is focused
    And I press Enter
    And the model call is provably stalled
    Then the web app's suggested questions are disabled
    And the button "Stop" is focused
    When I press Enter
    Then the reply is marked "Stopped"
    And the textbox "Message" is focused
    And the web app's suggested questions are enabled

  @agent-backend-runtime @external-model @stable-model
  Scenario: The preview is used with the keyboard alone and gives the focus back to its Message field
    Given the agent runtime backend is available
    And the stable chat model is available
    And a runnable agent has been created via API
    And the agent greets with "Hello, keyboard user." and suggests "Who are you?" and "What can you do?" via API
    When I open the agent's configure page
    And I press Tab until the textbox "Message" is focused
    And I type "Reply with exactly: E2E-KEYBOARD-PREVIEW" into the focused field
    And I press Enter
    Then the preview replies "E2E-KEYBOARD-PREVIEW"
    And the textbox "Message" is focused
    And the preview's suggested questions are enabled
    Given the model provider stalls the next call
    When I press Shift+Tab until the button "What can you do?" is focused
    And I press Enter
    And the model call is provably stalled
    Then the preview's suggested questions are disabled
    And the button "Stop" is focused
    When I press Enter
    Then the preview reply is marked "Stopped"
    And the textbox "Message" is focused
    And the preview's suggested questions are enabled
