@agent-backend-runtime
Feature: The agent runtime's API contract
  The console starts every chat run through the agent runtime's API, which
  may be deployed and upgraded apart from the console. A runtime serving
  another contract than the one this version's console calls (a route gone,
  a field renamed, a bound moved) fails runs that every page would only show
  as "unavailable". `make contracts` writes the contract beside the console's:
  support/api/runtime.openapi.json.

  Scenario: The agent runtime serves the contract the console calls
    Given the agent runtime backend is available
    Then the agent runtime serves the API contract the console calls
