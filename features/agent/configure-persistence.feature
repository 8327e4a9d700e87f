@core
Feature: Configure persistence
  What a user types into the configure page is the draft: it survives a
  refresh and leaving the page at once, and a save based on a stale revision
  never overwrites what another tab saved first.

  Background:
    Given a basic configured agent has been created via API

  Scenario: Instructions remain visible after refresh
    When I open the agent's configure page
    And I replace the instructions with "Answer in exactly three bullet points."
    Then the configuration should be saved automatically
    And the instructions field shows "Answer in exactly three bullet points."
    When I refresh the page
    Then the instructions field shows "Answer in exactly three bullet points."

  Scenario: Leaving the page right after an edit keeps the edit
    When I open the agent's configure page
    And I replace the instructions with "Written just before leaving."
    And I immediately open the agent roster
    Then the agent's draft instructions become "Written just before leaving."
    When I open the agent's configure page
    Then the instructions field shows "Written just before leaving."

  Scenario: The Configure tab clicked while an edit's save is refused keeps the user on the page with the edit
    Given the console will refuse the next draft save
    When I open the agent's configure page
    And the autosave delay does not run out by itself
    And I replace the instructions with "Kept on the page while its save is refused."
    And I switch to the "Configure" tab
    Then the publish bar shows "Save failed"
    And the instructions field shows "Kept on the page while its save is refused."
    When I retry the save
    Then the configuration should be saved automatically
    And the agent's draft instructions are "Kept on the page while its save is refused."

  Scenario: A save based on a stale revision is refused visibly
    When I open the agent's configure page
    And another tab saves the instructions "Saved from another tab."
    And I replace the instructions with "Saved from this tab."
    Then the publish bar shows "Save failed: this agent was changed elsewhere. Reload to get the latest version."
    And the agent's draft instructions are "Saved from another tab."

  Scenario: Opening statement and suggested questions remain after refresh
    When I open the agent's configure page
    And I replace the opening statement with "Hi! Ask me about orchids."
    And I add the suggested question "How often should I water?"
    And I add the suggested question "Which light is best?"
    Then the configuration should be saved automatically
    And the opening statement field shows "Hi! Ask me about orchids."
    And the suggested questions are "How often should I water?" and "Which light is best?"
    When I refresh the page
    Then the opening statement field shows "Hi! Ask me about orchids."
    And the suggested questions are "How often should I water?" and "Which light is best?"
    And the agent's draft suggests "How often should I water?" and "Which light is best?"

  Scenario: The preview shows each saved opening statement and suggested questions without a reload
    When I open the agent's configure page
    Then the preview shows no opening statement
    When I replace the opening statement with "Hi! Ask me about orchids."
    And I add the suggested question "How often should I water?"
    Then the configuration should be saved automatically
    And the preview opens with "Hi! Ask me about orchids."
    And the preview suggests "How often should I water?"
    When I replace the opening statement with "Hello again, orchid grower."
    And I add the suggested question "Which light is best?"
    Then the configuration should be saved automatically
    And the preview opens with "Hello again, orchid grower."
    And the preview suggests "How often should I water?" and "Which light is best?"
    When I refresh the page
    Then the preview opens with "Hello again, orchid grower."
    And the preview suggests "How often should I water?" and "Which light is best?"

  Scenario: Tool switches remain after refresh
    When I open the agent's configure page
    And I enable the tool "JSON replace"
    And I enable the tool "Sandbox shell"
    Then the configuration should be saved automatically
    When I disable the tool "Sandbox shell"
    Then the configuration should be saved automatically
    And the tools switched on are exactly:
      | tool         |
      | JSON replace |
    When I refresh the page
    Then the tools switched on are exactly:
      | tool         |
      | JSON replace |
    And the agent's enabled tools are exactly:
      | tool         |
      | JSON replace |

  Scenario: Leaving while the answer to a save is on its way still saves the edit made meanwhile
    Given the console holds the next draft save
    When I open the agent's configure page
    And I replace the instructions with "Saved before leaving."
    And the held draft save reaches the console, its answer kept from the page
    And I replace the opening statement with "Typed while the answer was on its way."
    And I immediately open the agent roster
    Then the agent's draft opening statement becomes "Typed while the answer was on its way."
    And the agent's draft instructions are "Saved before leaving."

  Scenario: Signing out with an edit the page cannot save keeps the user on the page with the edit
    When I open the agent's configure page
    And another tab saves the instructions "Saved from another tab."
    And I replace the instructions with "Saved from this tab."
    Then the publish bar shows "Save failed: this agent was changed elsewhere. Reload to get the latest version."
    When I replace the opening statement with "Not lost by signing out."
    And I sign out
    Then Sign out can be pressed again
    And the opening statement field shows "Not lost by signing out."
    And the publish bar shows "Save failed: this agent was changed elsewhere. Reload to get the latest version."
