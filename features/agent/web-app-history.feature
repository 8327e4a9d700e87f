@core @needs-test-hooks
Feature: Web app conversation history
  A conversation the web app resumes shows its messages oldest first, however
  they were stored. The history is written through the test seeding router,
  backdated and deliberately out of order; the agent is published the same way.

  Scenario: A seeded history renders in chronological order after a reload
    Given a basic configured agent has been created via API
    And the agent has been published via the test seeding router
    And a web app conversation with these backdated exchanges has been seeded out of order:
      | question                   |
      | First question, March 1st  |
      | Second question, March 2nd |
      | Third question, March 3rd  |
    When I open the agent's web app on the seeded conversation
    Then the web app shows the questions oldest first:
      | question                   |
      | First question, March 1st  |
      | Second question, March 2nd |
      | Third question, March 3rd  |

  Scenario: A conversation longer than the window resumes at its newest answer
    Given a basic configured agent has been created via API
    And the agent has been published via the test seeding router
    And a web app conversation with these backdated exchanges has been seeded out of order:
      | question                   |
      | Question 1 about the ring  |
      | Question 2 about the ring  |
      | Question 3 about the ring  |
      | Question 4 about the ring  |
      | Question 5 about the ring  |
      | Question 6 about the ring  |
      | Question 7 about the ring  |
      | Question 8 about the ring  |
      | Question 9 about the ring  |
      | Question 10 about the ring |
    When I open the agent's web app on the seeded conversation
    Then the web app shows the questions oldest first:
      | question                   |
      | Question 1 about the ring  |
      | Question 2 about the ring  |
      | Question 3 about the ring  |
      | Question 4 about the ring  |
      | Question 5 about the ring  |
      | Question 6 about the ring  |
      | Question 7 about the ring  |
      | Question 8 about the ring  |
      | Question 9 about the ring  |
      | Question 10 about the ring |
    And the web app shows the newest answer above the composer and the first question out of view
