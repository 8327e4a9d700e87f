@core
Feature: The console's API contract
  Clients of the console's API are written against the /openapi.json it
  documents: the suite's own models are generated from it (`make contracts`
  writes support/api/openapi.json). A console serving another contract (a
  route gone, an answer's status moved, a field's bound changed) breaks them
  before any page shows it. The comparison is operation by operation, each
  with its schemas inlined, so a difference is named where a client meets it.

  Scenario: The console serves the contract its clients were generated from
    Then the console serves the API contract the suite's models were generated from
