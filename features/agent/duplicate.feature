Feature: Duplicate an agent
  A copy starts from the original's draft configuration, files and
  environment variables under a new name; it is never published, has no API
  keys and no conversations, and the original keeps everything.

  @core
  Scenario: Duplicating from the roster copies the draft and the files under "<name> (copy)"
    Given a basic configured agent has been created via API
    And the agent has the tool "sandbox_shell" enabled via API
    And the agent has the tool "json_replace" disabled via API
    And the agent has the file "notes.txt" uploaded via API
    And the agent has the variable REGION set to "eu-west" via API
    When I open the agent roster
    And I duplicate the agent from the roster, keeping the suggested name
    Then the copy is named " (copy)" after the original
    And the instructions field shows the agent's instructions
    And the agent files list "notes.txt"
    And the variables are listed:
      | name   | value   |
      | REGION | eu-west |
    And the publish bar shows "Not published"
    And the copy has the original's draft configuration

  @core
  Scenario: A copy of an agent named at the name limit is suggested a shortened name that fits
    Given a basic configured agent with a name of 80 characters has been created via API
    When I open the agent roster
    And I duplicate the agent from the roster, keeping the suggested name
    Then the copy's name has 80 characters and ends in " (copy)"

  @core
  Scenario: A copy made right after an edit has the edit
    Given a basic configured agent has been created via API
    When I open the agent's configure page
    And the autosave delay does not run out by itself
    And I replace the instructions with "Edited just before duplicating."
    And I duplicate the agent from its configure page as "copy"
    Then the instructions field shows "Edited just before duplicating."
    And the copy has the original's draft configuration
    And the agent's draft instructions are "Edited just before duplicating."

  @core
  Scenario: Duplicate waits while an edit's save is refused, and copies the edit once Retry saved it
    Given a basic configured agent has been created via API
    And the console will refuse the next draft save
    When I open the agent's configure page
    And the autosave delay does not run out by itself
    And I replace the instructions with "Saved by Retry, then copied."
    And I click Duplicate on the agent's configure page
    Then the publish bar shows "Save failed"
    When I retry the save
    Then the configuration should be saved automatically
    And the Duplicate agent dialog is not open
    When I duplicate the agent from its configure page as "copy"
    Then the instructions field shows "Saved by Retry, then copied."
    And the copy has the original's draft configuration

  @prepared @stable-model
  Scenario: A copy made on the configure page of a published agent is not published and has no keys
    Given the stable chat model is available
    And a runnable agent has been created via API
    And the agent has been published via API
    And an API key has been created via API
    When I open the agent's configure page
    And I duplicate the agent from its configure page as "duplicate"
    Then the publish bar shows "Not published"
    And the copy has the original's draft configuration
    And the copy is not published and has no API keys
    And the original is still published with its API key

  @core
  Scenario: A copy keeps the original's secret variables secret
    Given a basic configured agent has been created via API
    And the agent has the secret variable SERVICE_TOKEN set to "tok-e2e-0123456789" via API
    When I open the agent's configure page
    And I duplicate the agent from its configure page as "secret-copy"
    Then the variable SERVICE_TOKEN is shown masked as "…6789"
    And the page never shows the secret "tok-e2e-0123456789"
    And the console API lists SERVICE_TOKEN as a secret masked as "…6789", without its value
