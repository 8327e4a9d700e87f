@keyboard
Feature: The console works with the keyboard alone
  A keyboard user reaches every control of a primary flow with Tab and sees where the focus is.
  Every dialog keeps the focus while it is open, closes with Escape and gives the focus back to
  the control that opened it, also after it saved something. These run on the embedded console
  (the a11y lane); publishing and chatting with the keyboard need the runtime and seeded models,
  and are in keyboard-chat.feature.

  Scenario: An agent is created from the roster and edited with the keyboard alone
    When I open the agent roster
    And I press Tab until the button "Create agent" is focused
    Then the focus is visible
    When I press Enter
    Then the "Create agent" dialog is open with the focus inside it
    And Tab and Shift+Tab keep the focus inside the "Create agent" dialog
    When I press Escape
    Then the "Create agent" dialog is closed
    And the button "Create agent" is focused
    When I press Enter
    And I type the name of a new agent "keyboard" into the focused field
    And I press Tab until the button "Create" is focused
    And I press Enter
    Then the new agent "keyboard" opens on its configure page
    When I press Tab until the textbox "Instructions" is focused
    Then the focus is visible
    When I type "Answer in three bullets." into the focused field
    Then the configuration should be saved automatically
    And the textbox "Instructions" is focused
    And the agent's draft instructions are "Answer in three bullets."

  @needs-test-hooks
  Scenario: The configure page's dialogs keep the focus and give it back, also after a save
    Given a basic configured agent has been created via API
    And the agent has the variable REGION set to "eu-west" via API
    And the agent has been published via the test seeding router
    When I open the agent's configure page
    And I press Tab until the button "Duplicate" is focused
    And I press Enter
    Then the "Duplicate agent" dialog is open with the focus inside it
    And Tab and Shift+Tab keep the focus inside the "Duplicate agent" dialog
    When I press Escape
    Then the "Duplicate agent" dialog is closed
    And the button "Duplicate" is focused
    When I press Tab until the button "Edit REGION" is focused
    And I press Enter
    Then the "Edit REGION" dialog is open with the focus inside it
    And Tab and Shift+Tab keep the focus inside the "Edit REGION" dialog
    When I press Tab until the button "Save variable" is focused
    And I press Enter
    Then the "Edit REGION" dialog is closed
    And the button "Edit REGION" is focused
    And the focus is visible
    When I press Tab until the button "Open version 1" is focused
    And I press Enter
    Then the "Version 1" dialog is open with the focus inside it
    And Tab and Shift+Tab keep the focus inside the "Version 1" dialog
    When I press Escape
    Then the "Version 1" dialog is closed
    And the button "Open version 1" is focused

  Scenario: A refused publish keeps the focus on Publish
    Given a basic configured agent has been created via API
    When I open the agent's configure page
    And I press Tab until the button "Publish" is focused
    And I press Enter
    Then publishing is refused with a reason mentioning "No model selected."
    And the button "Publish" is focused
    And the focus is visible

  @needs-test-hooks
  Scenario: An API key is created and copied with the keyboard alone, and the focus comes back
    Given a basic configured agent has been created via API
    And the agent has been published via the test seeding router
    When I open the agent's access point
    And I press Tab until the button "Create API key" is focused
    And I press Enter
    Then the "API key created" dialog is open with the focus inside it
    And the new API key is shown in its dialog
    And Tab and Shift+Tab keep the focus inside the "API key created" dialog
    When I press Tab until the button "Copy key" is focused
    And I press Space
    Then the clipboard holds the new API key
    When I press Escape
    Then the "API key created" dialog is closed
    And the button "Create API key" is focused
    And the focus is visible
    When I press Shift+Tab until the button "Embed" is focused
    And I press Enter
    Then the "Embed the web app" dialog is open with the focus inside it
    And Tab and Shift+Tab keep the focus inside the "Embed the web app" dialog
    When I press Escape
    Then the "Embed the web app" dialog is closed
    And the button "Embed" is focused

  Scenario: The web app settings are saved with the keyboard alone, and the focus comes back
    Given a basic configured agent has been created via API
    When I open the agent's access point
    And I press Tab until the button "Settings" is focused
    Then the focus is visible
    When I press Enter
    Then the "Web app settings" dialog is open with the focus inside it
    And Tab and Shift+Tab keep the focus inside the "Web app settings" dialog
    When I press Escape
    Then the "Web app settings" dialog is closed
    And the button "Settings" is focused
    When I press Enter
    Then the textbox "Title" is focused
    When I type "Zephyr Help Desk" into the focused field
    And I press Tab until the button "Save" is focused
    And I press Enter
    Then the "Web app settings" dialog is closed
    And the access point confirms "Settings saved. Publish to show them on the web app."
    And the button "Settings" is focused
    And the focus is visible
    When I press Enter
    Then the "Web app settings" dialog is open with the focus inside it
    And the web app settings dialog shows:
      | setting             | value            |
      | Title               | Zephyr Help Desk |
      | Description         |                  |
      | Icon                |                  |
      | Colour              | Blue             |
      | Copyright           |                  |
      | Privacy policy link |                  |
      | Default language    | English          |
    And the agent's draft web app settings are exactly:
      | setting             | value            |
      | Title               | Zephyr Help Desk |
      | Description         |                  |
      | Icon                |                  |
      | Colour              | Blue             |
      | Copyright           |                  |
      | Privacy policy link |                  |
      | Default language    | English          |

  Scenario: A skill's Replace control shows the focus on its visible label
    Given a basic configured agent has been created via API
    And the agent has the skill "greeting" described as "Greets visitors." via API
    When I open the agent's configure page
    And I press Tab until the button "Replace greeting" is focused
    Then the focus is visible
