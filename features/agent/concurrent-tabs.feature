@core
Feature: Concurrent tabs
  A tab whose draft was changed elsewhere says so as soon as it next saves or
  the user comes back to it, and offers to load the latest version. It never
  overwrites the other tab's edit; tabs that changed different fields converge.

  Background:
    Given a basic configured agent has been created via API

  Scenario: Two tabs editing different fields converge after loading the latest
    When I open the agent's configure page
    And I open the agent's configure page in a second tab
    And in the first tab I replace the instructions with "Edited in the first tab."
    Then the first tab has saved its change
    When in the second tab I replace the opening statement with "Edited in the second tab."
    Then the second tab says its save was refused because the agent changed elsewhere
    And the agent's draft instructions are "Edited in the first tab."
    When in the second tab I load the latest version
    Then the second tab has saved its change
    And after a reload both tabs show the instructions "Edited in the first tab." and the opening statement "Edited in the second tab."

  Scenario: A tab that regains focus offers to load the latest version
    When I open the agent's configure page
    And another tab saves the instructions "Saved in another tab."
    And another tab saves the opening statement "Greeting saved in another tab."
    And I return to the configure page's tab
    Then the configure page says the agent was changed elsewhere and offers to load the latest
    When in the first tab I load the latest version
    Then the instructions field shows "Saved in another tab."
    And the opening statement field shows "Greeting saved in another tab."
    And the preview opens with "Greeting saved in another tab."
