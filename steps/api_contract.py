"""The APIs as their clients rely on them: the console's (features/api/contract.feature) and the
agent runtime's that the console calls (runtime-contract.feature)."""

from behave import then
from behave.runner import Context

from support.api.contract import (
    RUNTIME_CONTRACT_PATH,
    committed_contract,
    contract_differences,
    served_schema,
)
from support.step_helpers import need
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


@then("the agent runtime serves the API contract the console calls")
def step_runtime_serves_the_contract(context: Context) -> None:
    """Every operation of the runtime's /openapi.json, schemas inlined, is as support/api/runtime.openapi.json documents it."""
    world: World = context.world
    backend = need(
        world.agent_builder.seeded.agent_backend,
        'No runtime was probed: start with "Given the agent runtime backend is available".',
    )
    differences = contract_differences(committed_contract(RUNTIME_CONTRACT_PATH), served_schema(backend.url))
    assert not differences, (
        "the agent runtime serves another API than support/api/runtime.openapi.json documents:\n  "
        + "\n  ".join(differences)
        + "\nIf the runtime's API changed on purpose, run `make contracts` and commit the result; "
        "against a deployment, its runtime runs another version than its console."
    )
