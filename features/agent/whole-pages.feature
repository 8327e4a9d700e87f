@prepared @stable-model @speech-to-text-model @tool-fixture
Feature: Whole pages, exactly as configured
  A page checked part by part can show something it should not, or drop a label
  or a hint, and still pass. These scenarios set an agent up in every part and
  compare the whole page, every heading, label, button and text as assistive
  technology reads it, with its golden under features/goldens/ (nothing more and
  nothing less; refresh with E2E_GOLDEN=refresh after an intended change).
  They run on the seeded console, so the model, speech-to-text and web search
  are the seed's wherever they run.

  Background:
    Given the stable chat model is available
    And the speech-to-text model is available
    And the web search tool credential is available
    And a runnable agent has been created via API
    And the agent greets with "Welcome to Ring 7." and suggests "Where is dock 4?" and "When is lunch served?" via API

  Scenario: Every part of a configured draft reads exactly as set on the configure page
    Given the agent has the tool "json_replace" enabled via API
    And the agent has the tool "sandbox_shell" disabled via API
    And the agent has the variable REGION set to "ring-7" via API
    And the agent has the secret variable DOCK_TOKEN set to "dock-token-0123456789" via API
    And the agent moderates questions with the keywords "zebra" and "black market" and the preset reply "I cannot talk about that." via API
    And the agent declares the outputs via API:
      | output         | type   | items  | description             |
      | summary        | string | -      | The answer in one line. |
      | customer       | object | -      |                         |
      | customer.email | string | -      |                         |
      | tags           | array  | string |                         |
    And the agent has the skill "greeting" described as "Greets visitors." via API
    And the agent has the file "notes.txt" uploaded via API
    When I open the agent's configure page
    Then the page's main content matches the golden "configure-configured-draft"

  Scenario: A published agent's access point reads exactly as set
    Given the agent's web app settings have been saved via API:
      | setting             | value                          |
      | Title               | Ring 7 Help Desk               |
      | Description         | Answers about the ring.        |
      | Icon                | 🛰                             |
      | Colour              | Green                          |
      | Copyright           | © 2026 Ring 7                  |
      | Privacy policy link | https://ring7.example/privacy  |
      | Default language    | English                        |
    And the agent has been published via API
    And an API key has been created via API
    When I open the agent's access point
    Then the page's main content matches the golden "access-point-published"

  Scenario: An unpublished agent's access point offers nothing to open or copy
    When I open the agent's access point
    Then the page's main content matches the golden "access-point-unpublished"

  Scenario: The roster lists the seeded agents and this one, exactly
    When I open the agent roster
    Then the page's main content matches the golden "roster"

  Scenario: A published agent's web app reads exactly as set
    Given the agent's web app settings have been saved via API:
      | setting             | value                          |
      | Title               | Ring 7 Help Desk               |
      | Description         | Answers about the ring.        |
      | Icon                | 🛰                             |
      | Colour              | Green                          |
      | Copyright           | © 2026 Ring 7                  |
      | Privacy policy link | https://ring7.example/privacy  |
      | Default language    | English                        |
    And the agent has been published via API
    When I open the agent's web app
    Then the page's main content matches the golden "web-app-published"

  Scenario: The configure page's dialogs read exactly as set
    Given the agent has the variable REGION set to "ring-7" via API
    And the agent has been published via API
    When I open the agent's configure page
    And I open the "Version 1" dialog with the "Open version 1" button
    Then the open dialog matches the golden "version-dialog"
    When I close the dialog
    And I open the "Edit REGION" dialog with the "Edit REGION" button
    Then the open dialog matches the golden "env-var-dialog"
    When I close the dialog
    And I open the "Duplicate agent" dialog with the "Duplicate" button
    Then the open dialog matches the golden "duplicate-dialog"

  Scenario: The access point's dialogs read exactly as set
    Given the agent's web app settings have been saved via API:
      | setting             | value                          |
      | Title               | Ring 7 Help Desk               |
      | Description         | Answers about the ring.        |
      | Icon                | 🛰                             |
      | Colour              | Green                          |
      | Copyright           | © 2026 Ring 7                  |
      | Privacy policy link | https://ring7.example/privacy  |
      | Default language    | English                        |
    And the agent has been published via API
    When I open the agent's access point
    And I open the "Embed the web app" dialog with the "Embed" button
    Then the open dialog matches the golden "embed-dialog"
    When I close the dialog
    And I open the "Web app settings" dialog with the "Settings" button
    Then the open dialog matches the golden "web-app-settings-dialog"
