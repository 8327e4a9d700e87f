@prepared @decision-model
Feature: Console models
  The console's own models, chosen on the model provider settings: the
  decision model the build assistant asks is shown by its provider and name.

  Scenario: The console models show the decision model the build assistant asks, by its provider and name
    Given the decision chat model is available
    When I open the model provider settings
    Then the console models show the decision model chosen, by its provider and name
