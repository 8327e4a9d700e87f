@core
Feature: Sign in and sign out
  Admins sign in to the console with their email and password. A wrong password
  starts no session, and signing out ends the session for every console page.

  Background:
    Given I am signed out

  Scenario: Signing in with the admin credentials opens the agent roster
    When I sign in with the admin credentials
    Then I see the agent roster
    And the navigation shows the admin email

  Scenario: A wrong password is refused visibly and starts no session
    When I sign in with the admin email and the password "not-the-password"
    Then I see the sign-in error "Invalid email or password"
    And the page's main content matches the golden "sign-in-refused"
    And opening the agent roster sends me to the sign-in page

  Scenario: Signing out ends the session
    When I sign in with the admin credentials
    And I sign out
    Then I see the sign-in page
    And opening the agent roster sends me to the sign-in page
    And the session I signed out of is refused by the console API

  Scenario: A form posted from another port of the console's host is refused and the session stays
    When I sign in with the admin credentials
    Then I see the agent roster
    When a page on another port of the console's host posts a sign-out form to the console
    Then the console refuses it as a request from another origin
    When I open the agent roster
    Then I see the agent roster

  Scenario: Without a session the console API refuses every request
    Given a basic configured agent has been created via API
    Then the console API refuses these requests without a session:
      | method | path                                 |
      | GET    | /console/api/agents                  |
      | GET    | /console/api/agents/{agent}          |
      | GET    | /console/api/agents/{agent}/api-keys |
      | POST   | /console/api/agents/{agent}/api-keys |
      | GET    | /console/api/agents/{agent}/files    |
      | GET    | /console/api/datasets                |
      | GET    | /console/api/model-providers         |
      | GET    | /console/api/tools                   |
      | GET    | /console/api/me                      |

  Scenario: Signing in returns to the page that asked for it
    Given a basic configured agent has been created via API
    When I open the agent's configure page
    Then I see the sign-in page
    When I sign in with the admin credentials
    Then I see the agent's configure page

  Scenario: A sign-in link whose next page is another site lands on the console
    When I open a sign-in link that sends me on to "/%09/evil.example/"
    And I sign in with the admin credentials
    Then I see the agent roster

  Scenario: Sign out cannot be pressed twice while it runs
    When I sign in with the admin credentials
    And the console holds the next sign-out
    And I sign out
    Then the held sign-out has been sent
    And Sign out cannot be pressed again while it runs
    When the held sign-out is released
    Then I see the sign-in page
    And the session I signed out of is refused by the console API
