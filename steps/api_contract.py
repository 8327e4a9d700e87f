"""The console's API contract as its clients rely on it (features/api/contract.feature)."""

from behave import then
from behave.runner import Context

from support.api.contract import committed_contract, contract_differences, served_schema
from support.world import World


@then("the console serves the API contract the suite's models were generated from")
def step_serves_the_contract(context: Context) -> None:
    """Every operation of the console's /openapi.json, schemas inlined, is as support/api/openapi.json documents it."""
    world: World = context.world
    differences = contract_differences(committed_contract(), served_schema(world.console_url))
    assert not differences, (
        "the console serves another API than support/api/openapi.json documents:\n  "
        + "\n  ".join(differences)
        + "\nIf the product's API changed on purpose, run `make contracts` and commit the result; "
        "against a deployment, it runs another version of the product than this suite's."
    )
