@core
Feature: Agent roster
  The roster lists every agent, narrows by search, creates new agents and
  deletes them together with everything they own.

  Scenario: Creating an agent from the roster opens its configure page
    When I open the agent roster
    And I create an agent named "roster-create" from the roster
    Then I see the agent's configure page
    When I open the agent roster
    Then the agent roster lists the agent
    And the agent's roster row shows exactly the buttons "Duplicate" and "Delete"

  Scenario: Searching the roster narrows it to the matching agent
    Given a basic configured agent named "search-alpha" has been created via API
    And a basic configured agent named "search-beta" has been created via API
    When I open the agent roster
    And I search the roster for the agent "search-alpha"
    Then the agent roster lists the agent "search-alpha"
    And the agent roster does not list the agent "search-beta"

  Scenario: A slow search answer never replaces the results of a newer search
    Given a basic configured agent named "search-alpha" has been created via API
    And a basic configured agent named "search-beta" has been created via API
    When I open the agent roster
    And the console holds the answer to a roster search for the agent "search-alpha"
    And I search the roster for the agent "search-alpha"
    Then the held roster search has been sent
    When I search the roster for the agent "search-beta"
    Then the agent roster does not list the agent "search-alpha"
    When the held roster search is answered
    Then the agent roster lists the agent "search-beta"
    And the agent roster does not list the agent "search-alpha"

  Scenario: A search that matches nothing says so
    When I open the agent roster
    And I search the roster for "no-agent-has-this-name"
    Then the agent roster says "No agents match"

  Scenario: Deleting an agent removes it for good
    Given a basic configured agent has been created via API
    When I open the agent roster
    And I delete the agent from the roster
    Then the agent roster does not list the agent
    And the agent no longer exists in the console

  Scenario: Cancelling a deletion keeps the agent
    Given a basic configured agent has been created via API
    When I open the agent roster
    And I start deleting the agent from the roster but cancel
    Then the agent roster lists the agent
    When I refresh the page
    Then the agent roster lists the agent
    And the agent still exists in the console

  Scenario: A roster longer than a page shows the rest on request
    # The outsider makes the count differ until the search has answered: "51 agents" says it has.
    Given a basic configured agent named "outsider" has been created via API
    And 51 basic configured agents have been created via API
    When I open the agent roster
    And I search the roster for "bulk"
    Then the agent roster says "51 agents"
    And the agent roster lists 50 agents and offers to show more
    When I ask the roster to show more
    Then the agent roster lists 51 agents and nothing more to show
    And the agent roster lists the agent "bulk-1"
