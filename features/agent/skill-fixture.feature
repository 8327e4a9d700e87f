@prepared @skill-fixture
Feature: The skill fixture agent
  The seed publishes e2e-seed-skill-agent with one skill, house-rules, uploaded
  from seed/data/skills/ as its files: its configure page lists it as seeded.

  Scenario: The skill fixture agent's configure page lists its seeded skill
    Given the skill fixture agent is available
    When I open the fixture agent's configure page
    Then the skills card lists exactly:
      | name        | description                                                                                    | files   |
      | house-rules | The house rules of the Meridian station, for visitors' questions about quiet hours and guests. | 2 files |
    And the skill count says "1 of 10 skills"
