"""API setup of scenario-owned state, one module per resource, and the reads that follow it.

A `Given ... via API` step calls one function here. It creates the scenario's own resources
(named with the run-unique E2E prefix), registers their cleanup in the World's typed queues, and
remembers what later steps call "the agent", "the dataset" or "that key". The same modules read
that state back through the console API when a step needs it (the agent's access URLs, its
draft once a save landed, the agent detail a Then asserts: `agents.saved_agent`), and adopt what
the page created (`track_agent_created_in_page`), so no step calls the console itself.
`seeding_router`: what only the test seeding router can create;
`fake_provider`: a model provider the scenario serves itself; `tracking`: the cleanup it registers.

Belongs here: console API calls on scenario-owned state. Does not belong here: seeded resources
(read-only, `support/seeded/`), the browser (`support/ui/`), assertions a scenario makes.
"""
